import StoreShared
/// Mirrors SwiftUI's `HorizontalAlignment`: how a `VStack` lines up its children.
public enum HorizontalAlignment: String, Sendable { case leading, center, trailing }
/// Mirrors SwiftUI's `VerticalAlignment`: how an `HStack` lines up its children.
public enum VerticalAlignment: String, Sendable { case top, center, bottom }

/// Children one above the other.
public struct VStack<Content: View>: PrimitiveView {
    let alignment: HorizontalAlignment
    let spacing: Double?
    let content: Content
    /// Mirrors `VStack(alignment:spacing:content:)`; spacing in points, the stylesheet's gap when nil.
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
    /// A `div` of the stack's class, with `gap` as inline CSS when spacing is given.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-vstack sk-align-\(alignment.rawValue)"), ("style", spacing.flatMap(CSSNumber.pixels).map { "gap:\($0)px" })])
        content._render(context, html)
        html.close("div")
    }
}

/// Children side by side; wraps on narrow screens.
public struct HStack<Content: View>: PrimitiveView {
    let alignment: VerticalAlignment
    let spacing: Double?
    let content: Content
    /// Mirrors `HStack(alignment:spacing:content:)`; spacing in points, the stylesheet's gap when nil.
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
    /// A `div` of the stack's class, with `gap` as inline CSS when spacing is given.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-hstack sk-valign-\(alignment.rawValue)"), ("style", spacing.flatMap(CSSNumber.pixels).map { "gap:\($0)px" })])
        content._render(context, html)
        html.close("div")
    }
}

/// Flexible space in a stack.
public struct Spacer: PrimitiveView {
    /// Space that pushes its neighbours apart, as SwiftUI's `Spacer()`.
    public init() {}
    /// An empty decorative `span` the stylesheet lets grow.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.element("span", [("class", "sk-spacer"), ("aria-hidden", "true")], text: "")
    }
}

/// A thin separating line.
public struct Divider: PrimitiveView {
    /// A separating line, as SwiftUI's `Divider()`.
    public init() {}
    /// An `hr` element.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) { html.open("hr", [("class", "sk-divider")]) }
}

/// A scrolling region; on the web the page itself scrolls, so this is a plain block.
public struct ScrollView<Content: View>: PrimitiveView {
    let content: Content
    /// Mirrors `ScrollView(content:)`; the content is not clipped or scrolled on its own.
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    /// A plain `div` around the content.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-scroll")])
        content._render(context, html)
        html.close("div")
    }
}

/// A spinner, shown while store data loads.
public struct ProgressView: PrimitiveView {
    let label: String
    /// A spinner with `label` beside it, as SwiftUI's `ProgressView(_:)`.
    public init(_ label: String = "Loading…") { self.label = label }
    /// A polite live region, so screen readers announce the label.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open("div", [("class", "sk-progress"), ("role", "status"), ("aria-live", "polite")])
        html.element("span", [("class", "sk-spinner"), ("aria-hidden", "true")], text: "")
        html.element("span", [("class", "sk-progress-label")], text: label)
        html.close("div")
    }
}

/// An element of your own choosing, for marketing content beyond the SwiftUI vocabulary:
/// `Element("h2", class: "hero") { Text("…") }`. Tag names are restricted to plain letters and
/// digits, tags that run or embed content (`script`, `style`, `iframe`…) become `div`, event
/// handlers and `srcdoc` are dropped, and URL attributes go through `Link`'s filter.
public struct Element<Content: View>: PrimitiveView {
    let tag: String
    let attributes: [(String, String?)]
    let content: Content
    /// An element of `tag` with your class and attributes, filtered as described above.
    public init(_ tag: String, class className: String? = nil, attributes: [(String, String?)] = [], @ViewBuilder content: () -> Content) {
        let plain = tag.unicodeScalars.allSatisfy { ($0.properties.isAlphabetic && $0.isASCII) || ("0"..."9").contains($0) }
        self.tag = plain && !tag.isEmpty && !ElementPolicy.forbiddenTags.contains(tag.lowercased()) ? tag : "div"
        self.attributes = [("class", className)] + attributes.compactMap { name, value in
            let lower = name.lowercased()
            guard !lower.hasPrefix("on"), !ElementPolicy.forbiddenAttributes.contains(lower), !lower.isEmpty,
                  name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0 == "-") }) else { return nil }
            if ElementPolicy.urlAttributes.contains(lower) { return (name, value.map(Link<Text>.safe)) }
            if lower == "src" { return (name, value.flatMap { $0.hasPrefix("data:image/") ? $0 : nil }) }
            return (name, value)
        }
        self.content = content()
    }
    /// The element with its filtered attributes, around the content.
    public func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.open(tag, attributes)
        content._render(context, html)
        html.close(tag)
    }
}
