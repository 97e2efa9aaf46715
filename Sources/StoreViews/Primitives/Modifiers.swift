import StoreShared
/// Presentation modifiers for marketing content. Each wraps its content in one element carrying
/// CSS built from numbers and fixed names only.
public struct StyledView<Content: View>: PrimitiveView {
    let content: Content
    let className: String?
    let style: String?
    let tag: String
    var attributes: [(String, String?)] = []

    /// One element of `tag` with the class, style and attributes, around the content.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open(tag, [("class", className), ("style", style)] + attributes)
        content._render(context, html)
        html.close(tag)
    }
}

/// Mirrors SwiftUI's `TextAlignment`; the raw value is the CSS `text-align` keyword.
public enum TextAlignment: String, Sendable { case leading = "start", center, trailing = "end" }

/// The shape `clipShape(_:)` clips to: a rounded rectangle or a capsule.
public struct RectangleShape: Sendable { let radius: Double }
extension RectangleShape {
    /// Mirrors `.rect(cornerRadius:)`: corners rounded by `cornerRadius` points.
    public static func rect(cornerRadius: Double) -> RectangleShape { RectangleShape(radius: cornerRadius) }
    /// Mirrors `.capsule`: fully rounded ends.
    public static var capsule: RectangleShape { RectangleShape(radius: 9999) }
}

extension View {
    /// Mirrors SwiftUI's `font(_:)`: the text style of every `Text` inside.
    public func font(_ font: Font) -> EnvironmentWriter<Self> {
        transformEnvironment { $0.font = font }
    }
    /// Mirrors `bold()`: the content in bold type.
    public func bold() -> StyledView<Self> { StyledView(content: self, className: "sk-bold", style: nil, tag: "div") }
    /// Mirrors `foregroundStyle(_:)`: the content's text color.
    public func foregroundStyle(_ style: some ShapeStyle) -> StyledView<Self> {
        StyledView(content: self, className: "sk-fg", style: "color:\(style.cssColor)", tag: "div")
    }
    /// Mirrors `padding(_:)`: space around the content, 16 points unless told.
    public func padding(_ length: Double = 16) -> StyledView<Self> {
        StyledView(content: self, className: "sk-pad", style: CSSNumber.pixels(length).map { "padding:\($0)px" }, tag: "div")
    }
    /// Mirrors `background(_:)`: a fill behind the content.
    public func background(_ style: some ShapeStyle) -> StyledView<Self> {
        StyledView(content: self, className: "sk-bg", style: "background:\(style.cssBackground)", tag: "div")
    }
    /// Mirrors `multilineTextAlignment(_:)`: how the content's lines of text align.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> StyledView<Self> {
        StyledView(content: self, className: "sk-talign", style: "text-align:\(alignment.rawValue)", tag: "div")
    }
    /// Mirrors `frame(maxWidth:minHeight:)`: caps and centres the width (`.infinity` fills the row)
    /// and sets a minimum height.
    public func frame(maxWidth: Double? = nil, minHeight: Double? = nil) -> StyledView<Self> {
        var css = ""
        if let maxWidth {
            if let pixels = CSSNumber.pixels(maxWidth) { css += "max-width:\(pixels)px;margin-inline:auto;" } else if maxWidth > 0 { css += "width:100%;" }
        }
        if let minHeight, let pixels = CSSNumber.pixels(minHeight) { css += "min-height:\(pixels)px;" }
        return StyledView(content: self, className: "sk-frame", style: css, tag: "div")
    }
    /// Mirrors `clipShape(_:)`: rounds the content's corners and hides what overflows them.
    public func clipShape(_ shape: RectangleShape) -> StyledView<Self> {
        StyledView(content: self, className: "sk-clip", style: "border-radius:\(CSSNumber.pixels(shape.radius) ?? 9999)px;overflow:hidden", tag: "div")
    }
    /// A CSS class of your own stylesheet's (letters, digits, `-` and `_` only).
    public func cssClass(_ name: String) -> StyledView<Self> {
        let safe = String(name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == " ") })
        return StyledView(content: self, className: safe, style: nil, tag: "div")
    }
    /// Hides decoration from screen readers.
    public func accessibilityHidden(_ hidden: Bool) -> StyledView<Self> {
        StyledView(content: self, className: nil, style: nil, tag: "div", attributes: [("aria-hidden", hidden ? "true" : nil)])
    }
}
