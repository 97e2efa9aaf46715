import StoreShared

/// Mirrors SwiftUI's `Circle`: the largest circle that fits the room it is given, as the talk's
/// samples draw behind a symbol. Decorative.
public struct Circle: PrimitiveView {
    let fill: AnyShapeStyle?
    /// A circle in the current text color until filled.
    public init() { fill = nil }
    init(fill: AnyShapeStyle?) { self.fill = fill }
    /// Mirrors `Shape.fill(_:)`: the same circle filled with `style` (a color, gradient or material).
    public func fill(_ style: some ShapeStyle) -> Circle { Circle(fill: AnyShapeStyle(style)) }

    /// A square `div` rounded into a circle, hidden from assistive technology like any shape.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.element("div", [("class", "sk-circle"), ("aria-hidden", "true"), ("style", fill.map { "background:\($0.cssBackground)" })], text: "")
    }
}
