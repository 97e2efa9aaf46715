import StoreShared
/// The built-in symbol set, drawn as inline SVG in a 24×24 box with the text's colour. Emoji
/// show as empty boxes on machines without an emoji font (headless Chromium, most CI images,
/// many servers); these shapes render everywhere and need no request. They are simple
/// silhouettes after the SF Symbols of the same names, not Apple's artwork.
enum Symbols {
    /// Strokes in the symbols' own colour, for the outlined parts of a shape.
    private static let stroke = "fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"round\""

    static let bird = #"<circle cx="15" cy="8" r="3.5"/><path d="M18 7.5l4 1.3-4 1.2z"/><path d="M3 9c3 0 5 2 7 2h5c1.8 0 3 1.5 3 3.5 0 3.6-3.4 6.5-8 6.5-2.6 0-4.6-1-5.6-2.4L2 19l2.4-3.2C3.5 14 3 11.8 3 9z"/>"#
    static let leaf = #"<path d="M20 3C9 3 4 8 4 15c0 2 .6 3.8 1.5 5L4 21.5 5.4 23l1.6-1.7c1.2.7 2.8 1.2 4.5 1.2C18 22.5 21 15 20 3zM8 18c2-4 5-7 9-9-3 3-6 6-7.5 10z"/>"#
    static let star = "M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.6z"

    /// Inner markup per SF Symbols name. Our own constants: written to the page as they are.
    static let markup: [String: String] = [
        "bird": bird, "bird.fill": bird,
        "leaf": leaf, "leaf.fill": leaf,
        "star": "<path d=\"\(star)\" \(stroke)/>", "star.fill": "<path d=\"\(star)\"/>",
        "checkmark": "<path d=\"M4 12.5l5 5L20 6.5\" \(stroke) stroke-width=\"2.6\"/>",
        "checkmark.circle.fill": #"<circle cx="12" cy="12" r="10"/><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="white" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>"#,
        "cart": "<path d=\"M2 3h3l2.4 11h11.2L21 6H7\" \(stroke)/><circle cx=\"9\" cy=\"19\" r=\"2\"/><circle cx=\"17\" cy=\"19\" r=\"2\"/>",
        "cart.fill": #"<path d="M1.5 2.5h3.8l.6 3H22l-2.6 9.5H8.2l.4 1.5H19v2H7.1L4 4.5H1.5z"/><circle cx="9" cy="20.5" r="1.8"/><circle cx="17" cy="20.5" r="1.8"/>"#,
        "gift": "<path d=\"M3 8h18v4H3zM4 12h16v9H4zM12 8v13\" \(stroke)/><path d=\"M12 8C10 4 6 3.5 6 6s4 2 6 2c2 0 6 .5 6-2s-4-2-6 2z\" \(stroke) stroke-width=\"1.6\"/>",
        "gift.fill": "<path d=\"M3 8h18v4H3zM4 13h7v8H4zM13 13h7v8h-7z\"/><path d=\"M12 8C10 4 6 3.5 6 6s4 2 6 2c2 0 6 .5 6-2s-4-2-6 2z\" \(stroke) stroke-width=\"1.6\"/>",
        "crown": "<path d=\"M3 7l4.5 4L12 4l4.5 7L21 7l-2 11H5z\" \(stroke)/>",
        "crown.fill": #"<path d="M3 7l4.5 4L12 4l4.5 7L21 7l-2 11H5zM5 19.5h14V22H5z"/>"#,
        "sparkles": #"<path d="M10 2l1.8 5.2L17 9l-5.2 1.8L10 16l-1.8-5.2L3 9l5.2-1.8zM18 13l.9 2.1L21 16l-2.1.9L18 19l-.9-2.1L15 16l2.1-.9z"/>"#,
        "person.fill": #"<circle cx="12" cy="7" r="4.5"/><path d="M3.5 22c0-5 3.8-8 8.5-8s8.5 3 8.5 8z"/>"#,
        "person.2.fill": #"<circle cx="8.5" cy="8" r="3.6"/><circle cx="16.5" cy="7" r="3"/><path d="M1.5 21c0-4.2 3.1-7 7-7s7 2.8 7 7zM15 13.2c.5-.1 1-.2 1.5-.2 3.3 0 6 2.3 6 6h-5c-.4-2.4-1.2-4.3-2.5-5.8z"/>"#,
        "chart.bar.fill": #"<path d="M3 14h4v7H3zM10 8h4v13h-4zM17 3h4v18h-4z"/>"#,
        "heart.fill": #"<path d="M12 21s-8.5-5.2-8.5-11.2C3.5 6.8 5.7 4.5 8.4 4.5c1.6 0 2.9.8 3.6 2 .7-1.2 2-2 3.6-2 2.7 0 4.9 2.3 4.9 5.3C20.5 15.8 12 21 12 21z"/>"#,
        "xmark": "<path d=\"M5 5l14 14M19 5L5 19\" \(stroke) stroke-width=\"2.4\"/>",
        "lock.fill": "<rect x=\"5\" y=\"10\" width=\"14\" height=\"12\" rx=\"1.5\"/><path d=\"M8 10V7a4 4 0 0 1 8 0v3\" \(stroke)/>",
        "bag.fill": "<path d=\"M4 8h16l-1 14H5z\"/><path d=\"M8.5 10V6.5a3.5 3.5 0 0 1 7 0V10\" \(stroke) stroke-width=\"1.8\"/>",
        "sun.max.fill": "<circle cx=\"12\" cy=\"12\" r=\"5\"/><path d=\"M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1\" \(stroke)/>",
        "cloud.fill": #"<path d="M7 19a5 5 0 0 1-.6-10A6.5 6.5 0 0 1 19 9.5a4.8 4.8 0 0 1-.5 9.5z"/>"#,
        "fork.knife": #"<path d="M6 2v7a2 2 0 0 0 1.5 1.9V22h2V10.9A2 2 0 0 0 11 9V2h-1.2v6h-.9V2H7.9v6H7V2zM16.5 2C14.8 3 14 5.5 14 8.5V13h2v9h2V2z"/>"#,
        "truck.box.fill": #"<path d="M1 5h13v11H1zM15 9h4.5l3.5 4v3h-8z"/><circle cx="5.5" cy="18.5" r="2.2"/><circle cx="18" cy="18.5" r="2.2"/>"#,
        "bubble.left.and.bubble.right.fill": #"<path d="M2 4h12a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H7l-4 3v-3H2a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1z"/><path d="M17 8h4.5a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H21v3l-4-3h-5a1 1 0 0 1-1-1v-1.5h4a2 2 0 0 0 2-2z"/>"#,
        "flame.fill": #"<path d="M12 2c1 4 5.5 6 5.5 11.5A5.5 5.5 0 0 1 12 22a5.5 5.5 0 0 1-5.5-5.5c0-3 1.8-4.5 2.5-6.5 1 1.5 1.5 2.5 1.5 4 1.5-2 2.3-5.5 1.5-12z"/>"#,
        "circle.fill": #"<circle cx="12" cy="12" r="9"/>"#,
        "circle.grid.2x2.fill": #"<circle cx="7" cy="7" r="4"/><circle cx="17" cy="7" r="4"/><circle cx="7" cy="17" r="4"/><circle cx="17" cy="17" r="4"/>"#,
        "drop.fill": #"<path d="M12 2s7 8 7 13a7 7 0 0 1-14 0c0-5 7-13 7-13z"/>"#,
        "square.stack.fill": #"<path d="M5 9h14a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1zM6 5.5h12v2H6zM8 2.5h8v2H8z"/>"#,
        "scribble": "<path d=\"M3 16c2-6 4-6 5 0s3 6 5 0 3-6 5 0 2 3 3 1\" \(stroke) stroke-width=\"2.4\"/>",
        "basket.fill": "<path d=\"M2 10h20l-2.5 11h-15z\"/><path d=\"M6.5 10l4-6M17.5 10l-4-6\" \(stroke) stroke-width=\"1.8\"/>",
    ]

    /// Unknown names: a neutral dot, as before.
    static let fallback = #"<circle cx="12" cy="12" r="4"/>"#

    /// `<svg>` for `name`, decorative (hidden from assistive technology: the text beside it speaks).
    static func write(_ name: String, _ html: HTMLWriter) {
        html.open("svg", [("class", "sk-symbol"), ("aria-hidden", "true"), ("focusable", "false"), ("data-symbol", name),
                          ("viewBox", "0 0 24 24"), ("width", "1em"), ("height", "1em"), ("fill", "currentColor"),
                          ("xmlns", "http://www.w3.org/2000/svg")])
        html.trusted(markup[name] ?? fallback)
        html.close("svg")
    }
}
