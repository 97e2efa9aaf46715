import StoreShared

/// Mirrors SwiftUI's `Label`: a title with an icon before it, as `ContentUnavailableView` and the
/// talk's samples use. The icon is decorative; the title speaks.
public struct Label<Title: View, Icon: View>: PrimitiveView {
    let title: Title
    let icon: Icon
    /// Mirrors `Label(title:icon:)`.
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }
    /// A `span` holding the hidden icon and the title side by side.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("span", [("class", "sk-label")])
        html.open("span", [("class", "sk-label-icon"), ("aria-hidden", "true")])
        icon._render(context, html)
        html.close("span")
        html.open("span", [("class", "sk-label-title"), ("dir", "auto")])
        title._render(context, html)
        html.close("span")
        html.close("span")
    }
}

extension Label where Title == Text, Icon == Image {
    /// Mirrors `Label(_:systemImage:)`: a title with a symbol from the built-in set.
    public init(_ title: some StringProtocol, systemImage name: String) {
        self.init(title: { Text(verbatim: title) }, icon: { Image(systemName: name) })
    }
}
