/// A fill: a color, gradient or material, expressed as CSS. Values are built from numbers and
/// fixed names only, so a style can never inject markup or script.
public protocol ShapeStyle: Sendable {
    /// The CSS `background` value.
    var cssBackground: String { get }
    /// The CSS `color` value (gradients use their first color).
    var cssColor: String { get }
}

/// Any fill with its type erased, so the environment can store styles of different kinds.
public struct AnyShapeStyle: ShapeStyle {
    /// The wrapped style's CSS `background` value.
    public let cssBackground: String
    /// The wrapped style's CSS `color` value.
    public let cssColor: String
    /// Copies the CSS of `style`.
    public init(_ style: some ShapeStyle) {
        cssBackground = style.cssBackground
        cssColor = style.cssColor
    }
}

/// Mirrors SwiftUI's `Color`: a CSS color; most named colors follow the page's color scheme.
public struct Color: ShapeStyle, Hashable {
    let css: String
    /// The color as a CSS `background` value.
    public var cssBackground: String { css }
    /// The color as a CSS `color` value.
    public var cssColor: String { css }

    init(css: String) { self.css = css }

    /// A color from red, green and blue in 0…1, clamped, with an optional opacity.
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        func channel(_ value: Double) -> Int { Int((CSSNumber.unit(value) * 255).rounded()) }
        css = "rgb(\(channel(red)) \(channel(green)) \(channel(blue)) / \(CSSNumber.unit(opacity)))"
    }

    /// `0xRRGGBB`.
    public init(hex: UInt32, opacity: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255, opacity: opacity)
    }

    /// A color that follows the page's color scheme, like an asset-catalog color with a dark
    /// appearance.
    public init(light: Color, dark: Color) {
        css = "light-dark(\(light.css), \(dark.css))"
    }

    /// This color at `value` opacity (0…1), mixed with transparency.
    public func opacity(_ value: Double) -> Color {
        Color(css: "color-mix(in srgb, \(css) \(Int((CSSNumber.unit(value) * 100).rounded()))%, transparent)")
    }

    /// Mirrors `Color.clear`: fully transparent, e.g. to let a background behind show through.
    public static let clear = Color(css: "transparent")
    /// Mirrors `Color.black`: black in both color schemes.
    public static let black = Color(css: "#000")
    /// Mirrors `Color.white`: white in both color schemes.
    public static let white = Color(css: "#fff")
    /// Mirrors `Color.gray`: the system gray, the same in light and dark.
    public static let gray = Color(css: "var(--sk-gray)")
    /// Mirrors `Color.red`: the system red, lighter in dark mode.
    public static let red = Color(css: "var(--sk-red)")
    /// Mirrors `Color.orange`: the system orange, lighter in dark mode.
    public static let orange = Color(css: "var(--sk-orange)")
    /// Mirrors `Color.yellow`: the system yellow, lighter in dark mode.
    public static let yellow = Color(css: "var(--sk-yellow)")
    /// Mirrors `Color.green`: the system green, lighter in dark mode.
    public static let green = Color(css: "var(--sk-green)")
    /// Mirrors `Color.mint`: the system mint, lighter in dark mode.
    public static let mint = Color(css: "var(--sk-mint)")
    /// Mirrors `Color.teal`: the system teal, lighter in dark mode.
    public static let teal = Color(css: "var(--sk-teal)")
    /// Mirrors `Color.cyan`: the system cyan, lighter in dark mode.
    public static let cyan = Color(css: "var(--sk-cyan)")
    /// Mirrors `Color.blue`: the system blue, lighter in dark mode.
    public static let blue = Color(css: "var(--sk-blue)")
    /// Mirrors `Color.indigo`: the system indigo, lighter in dark mode.
    public static let indigo = Color(css: "var(--sk-indigo)")
    /// Mirrors `Color.purple`: the system purple, lighter in dark mode.
    public static let purple = Color(css: "var(--sk-purple)")
    /// Mirrors `Color.pink`: the system pink, lighter in dark mode.
    public static let pink = Color(css: "var(--sk-pink)")
    /// Mirrors `Color.brown`: the system brown, lighter in dark mode.
    public static let brown = Color(css: "var(--sk-brown)")
    /// Mirrors `Color.primary`: the page's label color, black in light mode and white in dark.
    public static let primary = Color(css: "var(--sk-label)")
    /// Mirrors `Color.secondary`: the dimmer label color for secondary text.
    public static let secondary = Color(css: "var(--sk-secondary-label)")
    /// Mirrors `Color.accentColor`: the page's accent (links, buttons), lighter in dark mode.
    public static let accentColor = Color(css: "var(--sk-accent)")
}

extension ShapeStyle where Self == Color {
    /// Mirrors `ShapeStyle.clear`, so `.clear` works wherever a style is expected.
    public static var clear: Color { .clear }
    /// Mirrors `ShapeStyle.primary`: the label color.
    public static var primary: Color { .primary }
    /// Mirrors `ShapeStyle.secondary`: the secondary label color.
    public static var secondary: Color { .secondary }
    /// Mirrors `ShapeStyle.tint`: the accent color.
    public static var tint: Color { .accentColor }
}

/// Mirrors SwiftUI's `UnitPoint`: a point in a view, 0…1 from the leading/top edge.
public struct UnitPoint: Sendable, Hashable {
    /// Horizontal position: 0 is the leading edge, 1 the trailing.
    public var x: Double
    /// Vertical position: 0 is the top, 1 the bottom.
    public var y: Double
    /// The point at `x`, `y`, each usually 0…1.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// Mirrors `UnitPoint.top` and `.bottom`: the middle of the top and bottom edges.
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    /// Mirrors `.leading` and `.trailing`: the middle of the leading and trailing edges.
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    /// Mirrors `.topLeading` and `.bottomTrailing`: two opposite corners.
    public static let topLeading = UnitPoint(x: 0, y: 0), bottomTrailing = UnitPoint(x: 1, y: 1)
    /// Mirrors `.topTrailing` and `.bottomLeading`: the other two corners.
    public static let topTrailing = UnitPoint(x: 1, y: 0), bottomLeading = UnitPoint(x: 0, y: 1)

    var cssAngle: Int {
        let dx = 0.5 - x, dy = 0.5 - y
        if dx == 0 && dy == 0 { return 180 }
        // CSS angles: 0deg points up, clockwise; from the start point toward the centre.
        let degrees = atan2(-dx, dy) * 180 / Double.pi
        return degrees.isFinite ? (Int(degrees.rounded()) + 360) % 360 : 180
    }
}

/// Mirrors SwiftUI's `LinearGradient`: colors blending along a line from one point to another.
public struct LinearGradient: ShapeStyle {
    let colors: [Color]
    let startPoint: UnitPoint
    let endPoint: UnitPoint
    /// Blends `colors` evenly from `startPoint` to `endPoint`.
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.colors = colors
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
    /// A CSS `linear-gradient` whose angle follows the start and end points.
    public var cssBackground: String {
        let dx = endPoint.x - startPoint.x, dy = endPoint.y - startPoint.y
        let degrees = atan2(dx, -dy) * 180 / Double.pi
        let angle = degrees.isFinite ? (Int(degrees.rounded()) + 360) % 360 : 180
        return "linear-gradient(\(angle)deg, \(colors.map(\.css).joined(separator: ", ")))"
    }
    /// The first color, for text (CSS text cannot take a gradient); `inherit` when there are none.
    public var cssColor: String { colors.first?.css ?? "inherit" }
}

/// SwiftUI's translucent materials: a tinted layer that blurs what is behind it.
public struct Material: ShapeStyle {
    let level: String
    /// The stylesheet's material layer for this level, which follows the color scheme.
    public var cssBackground: String { "var(--sk-material-\(level))" }
    /// The page's label color, for text on the material.
    public var cssColor: String { "var(--sk-label)" }
    /// Mirrors `Material.ultraThinMaterial`: the most see-through layer.
    public static let ultraThinMaterial = Material(level: "ultrathin")
    /// Mirrors `.thinMaterial`: a see-through layer, more opaque than ultra-thin.
    public static let thinMaterial = Material(level: "thin")
    /// Mirrors `.regularMaterial`: the standard layer, as behind a store's controls.
    public static let regularMaterial = Material(level: "regular")
    /// Mirrors `.thickMaterial`: the most opaque layer.
    public static let thickMaterial = Material(level: "thick")
}

extension ShapeStyle where Self == Material {
    /// Mirrors `ShapeStyle.ultraThinMaterial`, so the material works wherever a style is expected.
    public static var ultraThinMaterial: Material { Material.ultraThinMaterial }
    /// Mirrors `ShapeStyle.thinMaterial`.
    public static var thinMaterial: Material { Material.thinMaterial }
    /// Mirrors `ShapeStyle.regularMaterial`.
    public static var regularMaterial: Material { Material.regularMaterial }
    /// Mirrors `ShapeStyle.thickMaterial`.
    public static var thickMaterial: Material { Material.thickMaterial }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
