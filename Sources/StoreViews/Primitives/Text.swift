import StoreShared
/// Text, always escaped.
public struct Text: PrimitiveView {
    /// The string shown, escaped when written.
    public let content: String
    /// Text shown as given, with no localization lookup.
    public init(_ content: String) { self.content = content }
    /// Mirrors `Text(verbatim:)`: text shown exactly as given.
    public init<S: StringProtocol>(verbatim content: S) { self.content = String(content) }

    /// Plain escaped text, or a heading or `span` in the environment's font.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        if let font = context.environment.font {
            html.element(font.headingTag ?? "span", [("class", "sk-text sk-font-\(font.rawValue)"), ("dir", "auto")], text: content)
        } else {
            html.text(content)
        }
    }
}

/// SwiftUI's text styles, mapped to a type scale in the stylesheet.
public enum Font: String, Sendable, CaseIterable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption

    /// Title styles are headings on the web (what VoiceOver's header trait gives a SwiftUI title):
    /// large title `h1`, title and title 2 `h2`, title 3 `h3`.
    var headingTag: String? {
        switch self {
        case .largeTitle: "h1"
        case .title, .title2: "h2"
        case .title3: "h3"
        default: nil
        }
    }
}

/// A symbol by SF Symbols name. Pages make no external requests, so symbols come from a small
/// built-in set drawn as inline SVG (`Symbols`), which renders without an emoji font; unknown
/// names fall back to a neutral dot. An emoji appears only when a page asks for one (`glyph:`).
public struct Image: PrimitiveView {
    enum Source { case symbol(String), dataURL(String, alt: String), decorative(String) }
    let source: Source

    /// Mirrors `Image(systemName:)`: drawn from the built-in symbol set, a dot for unknown names.
    public init(systemName: String) { source = .symbol(systemName) }
    /// An image embedded in the page (`data:` URL), never fetched from elsewhere.
    public init(dataURL: String, label: String) { source = .dataURL(dataURL, alt: label) }
    /// An emoji or other character shown as an image, hidden from assistive technology.
    public init(glyph: String) { source = .decorative(glyph) }

    /// The SF Symbols names drawn by the built-in set.
    public static var systemNames: [String] { Symbols.markup.keys.sorted() }

    /// Inline SVG for a symbol, a hidden `span` for a glyph, or an `img` for a `data:image/` URL.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        switch source {
        case .symbol(let name):
            Symbols.write(context.environment.symbolVariants.apply(to: name) { Symbols.markup[$0] != nil }, html)
        case .decorative(let glyph):
            html.element("span", [("class", "sk-symbol"), ("aria-hidden", "true")], text: glyph)
        case .dataURL(let url, let alt):
            let safe = url.hasPrefix("data:image/") ? url : ""
            html.open("img", [("class", "sk-image"), ("src", safe), ("alt", alt)])
        }
    }
}
