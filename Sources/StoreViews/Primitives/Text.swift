/// Text, always escaped.
public struct Text: PrimitiveView {
    public let content: String
    public init(_ content: String) { self.content = content }
    public init<S: StringProtocol>(verbatim content: S) { self.content = String(content) }

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

/// A symbol by SF Symbols name. Pages make no external requests, so symbols are drawn from a small
/// built-in set of glyphs; unknown names fall back to a neutral dot.
public struct Image: PrimitiveView {
    enum Source { case symbol(String), dataURL(String, alt: String), decorative(String) }
    let source: Source

    public init(systemName: String) { source = .symbol(systemName) }
    /// An image embedded in the page (`data:` URL), never fetched from elsewhere.
    public init(dataURL: String, label: String) { source = .dataURL(dataURL, alt: label) }
    /// An emoji or glyph shown as an image, hidden from assistive technology.
    public init(glyph: String) { source = .decorative(glyph) }

    static let symbols: [String: String] = [
        "bird": "🐦", "bird.fill": "🐦", "leaf": "🍃", "leaf.fill": "🍃", "star": "☆", "star.fill": "★",
        "checkmark": "✓", "checkmark.circle.fill": "✓", "cart": "🛒", "cart.fill": "🛒", "gift": "🎁",
        "gift.fill": "🎁", "crown": "👑", "crown.fill": "👑", "sparkles": "✨", "person.2.fill": "👥",
        "person.fill": "👤", "chart.bar.fill": "📊", "heart.fill": "♥", "xmark": "✕", "lock.fill": "🔒",
        "bag.fill": "🛍", "sun.max.fill": "☀", "cloud.fill": "☁", "fork.knife": "🍴", "truck.box.fill": "🚚",
        "bubble.left.and.bubble.right.fill": "💬", "flame.fill": "🔥",
    ]

    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        switch source {
        case .symbol(let name):
            html.element("span", [("class", "sk-symbol"), ("aria-hidden", "true"), ("data-symbol", name)],
                         text: Self.symbols[name] ?? "•")
        case .decorative(let glyph):
            html.element("span", [("class", "sk-symbol"), ("aria-hidden", "true")], text: glyph)
        case .dataURL(let url, let alt):
            let safe = url.hasPrefix("data:image/") ? url : ""
            html.open("img", [("class", "sk-image"), ("src", safe), ("alt", alt)])
        }
    }
}
