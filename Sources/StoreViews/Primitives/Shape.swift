import StoreShared

/// Mirrors SwiftUI's `Shape` for what a box can be drawn as with CSS: a rectangle, rounded or not,
/// a capsule, or a circle. Modifiers that take `some Shape` (`subscriptionStorePickerItemBackground(_:in:)`)
/// round their boxes with it.
public protocol Shape {
    /// The CSS `border-radius` that turns a box into this shape.
    var cssBorderRadius: String { get }
}

extension RectangleShape: Shape {
    /// The corner radius in pixels (capsules use a radius larger than any box).
    public var cssBorderRadius: String { "\(CSSNumber.pixels(max(0, radius)) ?? 0)px" }
}

extension Rectangle: Shape {
    /// Square corners, or the radius given with `cornerRadius(_:)`.
    public var cssBorderRadius: String { "\(CSSNumber.pixels(max(0, radius)) ?? 0)px" }
}

extension Circle: Shape {
    /// Half the box each way: a circle on a square box, an ellipse on a wider one.
    public var cssBorderRadius: String { "50%" }
}

extension Shape where Self == RectangleShape {
    /// Mirrors `Shape.rect(cornerRadius:)`: a rectangle with corners rounded by `cornerRadius` points.
    public static func rect(cornerRadius: Double) -> RectangleShape { RectangleShape(radius: cornerRadius) }
    /// Mirrors `Shape.capsule`: fully rounded ends.
    public static var capsule: RectangleShape { RectangleShape(radius: 9999) }
}
