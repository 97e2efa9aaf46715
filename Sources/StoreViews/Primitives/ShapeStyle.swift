/// A fill: a color, gradient or material, expressed as CSS. Values are built from numbers and
/// fixed names only, so a style can never inject markup or script.
public protocol ShapeStyle: Sendable {
    /// The CSS `background` value.
    var cssBackground: String { get }
    /// The CSS `color` value (gradients use their first color).
    var cssColor: String { get }
}

public struct AnyShapeStyle: ShapeStyle {
    public let cssBackground: String
    public let cssColor: String
    public init(_ style: some ShapeStyle) {
        cssBackground = style.cssBackground
        cssColor = style.cssColor
    }
}

public struct Color: ShapeStyle, Hashable {
    let css: String
    public var cssBackground: String { css }
    public var cssColor: String { css }

    init(css: String) { self.css = css }

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

    public func opacity(_ value: Double) -> Color {
        Color(css: "color-mix(in srgb, \(css) \(Int((CSSNumber.unit(value) * 100).rounded()))%, transparent)")
    }

    public static let clear = Color(css: "transparent")
    public static let black = Color(css: "#000")
    public static let white = Color(css: "#fff")
    public static let gray = Color(css: "var(--sk-gray)")
    public static let red = Color(css: "var(--sk-red)")
    public static let orange = Color(css: "var(--sk-orange)")
    public static let yellow = Color(css: "var(--sk-yellow)")
    public static let green = Color(css: "var(--sk-green)")
    public static let mint = Color(css: "var(--sk-mint)")
    public static let teal = Color(css: "var(--sk-teal)")
    public static let cyan = Color(css: "var(--sk-cyan)")
    public static let blue = Color(css: "var(--sk-blue)")
    public static let indigo = Color(css: "var(--sk-indigo)")
    public static let purple = Color(css: "var(--sk-purple)")
    public static let pink = Color(css: "var(--sk-pink)")
    public static let brown = Color(css: "var(--sk-brown)")
    public static let primary = Color(css: "var(--sk-label)")
    public static let secondary = Color(css: "var(--sk-secondary-label)")
    public static let accentColor = Color(css: "var(--sk-accent)")
}

extension ShapeStyle where Self == Color {
    public static var clear: Color { .clear }
    public static var primary: Color { .primary }
    public static var secondary: Color { .secondary }
    public static var tint: Color { .accentColor }
}

public struct UnitPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    public static let topLeading = UnitPoint(x: 0, y: 0), bottomTrailing = UnitPoint(x: 1, y: 1)
    public static let topTrailing = UnitPoint(x: 1, y: 0), bottomLeading = UnitPoint(x: 0, y: 1)

    var cssAngle: Int {
        let dx = 0.5 - x, dy = 0.5 - y
        if dx == 0 && dy == 0 { return 180 }
        // CSS angles: 0deg points up, clockwise; from the start point toward the centre.
        let degrees = atan2(-dx, dy) * 180 / Double.pi
        return degrees.isFinite ? (Int(degrees.rounded()) + 360) % 360 : 180
    }
}

public struct LinearGradient: ShapeStyle {
    let colors: [Color]
    let startPoint: UnitPoint
    let endPoint: UnitPoint
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.colors = colors
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
    public var cssBackground: String {
        let dx = endPoint.x - startPoint.x, dy = endPoint.y - startPoint.y
        let degrees = atan2(dx, -dy) * 180 / Double.pi
        let angle = degrees.isFinite ? (Int(degrees.rounded()) + 360) % 360 : 180
        return "linear-gradient(\(angle)deg, \(colors.map(\.css).joined(separator: ", ")))"
    }
    public var cssColor: String { colors.first?.css ?? "inherit" }
}

/// SwiftUI's translucent materials: a tinted layer that blurs what is behind it.
public struct Material: ShapeStyle {
    let level: String
    public var cssBackground: String { "var(--sk-material-\(level))" }
    public var cssColor: String { "var(--sk-label)" }
    public static let ultraThinMaterial = Material(level: "ultrathin")
    public static let thinMaterial = Material(level: "thin")
    public static let regularMaterial = Material(level: "regular")
    public static let thickMaterial = Material(level: "thick")
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { Material.ultraThinMaterial }
    public static var thinMaterial: Material { Material.thinMaterial }
    public static var regularMaterial: Material { Material.regularMaterial }
    public static var thickMaterial: Material { Material.thickMaterial }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
