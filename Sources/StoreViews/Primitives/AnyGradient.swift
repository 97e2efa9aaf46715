/// Mirrors SwiftUI's `AnyGradient`, what `Color.gradient` returns: "When used as a ShapeStyle, this
/// type draws a linear gradient with start-point [0.5, 0] and end-point [0.5, 1]" — top to bottom,
/// from a lighter tint of the color to the color itself.
public struct AnyGradient: ShapeStyle {
    let color: Color
    /// A CSS `linear-gradient` from the color mixed with white to the color, top to bottom.
    public var cssBackground: String { "linear-gradient(180deg, color-mix(in srgb, \(color.css) 75%, white), \(color.css))" }
    /// The color itself, for text (CSS text cannot take a gradient).
    public var cssColor: String { color.css }
}

extension Color {
    /// Mirrors `Color.gradient`: "the standard gradient for the color", e.g.
    /// `containerBackground(Color.blue.gradient, for: .subscriptionStore)`.
    public var gradient: AnyGradient { AnyGradient(color: self) }
}
