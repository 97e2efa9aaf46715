import StoreShared

/// Mirrors SwiftUI's `ContentUnavailableView`: "an interface, consisting of a label and additional
/// content, that you display when the content of your app is unavailable to users" — the talk's
/// samples show it when a product can't be loaded.
public struct ContentUnavailableView<Label: View, Description: View, Actions: View>: PrimitiveView {
    let label: Label
    let description: Description
    let actions: Actions
    /// Mirrors `init(label:description:actions:)`; description and actions default to nothing.
    public init(@ViewBuilder label: () -> Label, @ViewBuilder description: () -> Description = { EmptyView() },
                @ViewBuilder actions: () -> Actions = { EmptyView() }) {
        self.label = label()
        self.description = description()
        self.actions = actions()
    }
    /// A centred block: the label large, the description secondary, then the actions.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-unavailable")])
        html.open("p", [("class", "sk-unavailable-label")])
        label._render(context, html)
        html.close("p")
        html.open("p", [("class", "sk-unavailable-description")])
        description._render(context, html)
        html.close("p")
        html.open("div", [("class", "sk-unavailable-actions")])
        actions._render(context, html)
        html.close("div")
        html.close("div")
    }
}

extension ContentUnavailableView where Label == StoreViews.Label<Text, Image>, Description == Text?, Actions == EmptyView {
    /// Mirrors `init(_:systemImage:description:)`: a title, a symbol and an optional description.
    public init(_ title: some StringProtocol, systemImage name: String, description: Text? = nil) {
        self.init(label: { StoreViews.Label(title, systemImage: name) }, description: { description })
    }
}
