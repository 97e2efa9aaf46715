import StoreShared

/// Mirrors SwiftUI's `Alignment`: a horizontal and a vertical guide together, as `ZStack` and
/// overlays use them.
public struct Alignment: Sendable, Hashable {
    /// Where along the width the content sits.
    public var horizontal: HorizontalAlignment
    /// Where along the height the content sits.
    public var vertical: VerticalAlignment
    /// Mirrors `Alignment(horizontal:vertical:)`.
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    /// Mirrors `Alignment.center`, the middle on both axes.
    public static let center = Alignment(horizontal: .center, vertical: .center)
    /// Mirrors `.leading`, `.trailing`, `.top` and `.bottom`: one edge, centred on the other axis.
    public static let leading = Alignment(horizontal: .leading, vertical: .center),
                      trailing = Alignment(horizontal: .trailing, vertical: .center),
                      top = Alignment(horizontal: .center, vertical: .top),
                      bottom = Alignment(horizontal: .center, vertical: .bottom)
    /// Mirrors the four corners: `.topLeading`, `.topTrailing`, `.bottomLeading`, `.bottomTrailing`.
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top),
                      topTrailing = Alignment(horizontal: .trailing, vertical: .top),
                      bottomLeading = Alignment(horizontal: .leading, vertical: .bottom),
                      bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// CSS `place-items` (block axis first): `start`/`center`/`end`, which follow the writing direction.
    var cssPlaceItems: String {
        func css(_ value: String) -> String { value == "leading" || value == "top" ? "start" : value == "center" ? "center" : "end" }
        return "\(css(vertical.rawValue)) \(css(horizontal.rawValue))"
    }
}

/// Children on top of each other, later ones in front: the talk's samples layer a symbol over a
/// `Circle` this way. One grid cell holds every child, so the stack is as large as its largest one.
public struct ZStack<Content: View>: PrimitiveView {
    let alignment: Alignment
    let content: Content
    /// Mirrors `ZStack(alignment:content:)`: "A view that overlays its subviews, aligning them in both axes."
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
    /// A `div` of the stack's class with the alignment as inline `place-items`.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-zstack"), ("style", alignment == .center ? nil : "place-items:\(alignment.cssPlaceItems)")])
        content._render(context, html)
        html.close("div")
    }
}
