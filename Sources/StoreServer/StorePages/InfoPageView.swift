import StoreViews
import StoreShared

/// The store's own plain pages (the index of store pages, terms, privacy text, errors): a
/// heading and blocks, drawn with the store pages' stylesheet so they look alike in light and dark.
struct InfoPageView: PrimitiveView {
    struct Entry {
        var title: String
        var url: String
        var summary: String
    }

    enum Block {
        case paragraph(String)
        case links([Entry])
        /// A long text whose line breaks matter (a EULA).
        case text(String)
    }

    let title: String
    let blocks: [Block]

    func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.element("h1", [("class", "sk-section-title")], text: title)
        for block in blocks {
            switch block {
            case .paragraph(let text):
                html.element("p", text: text)
            case .text(let text):
                html.element("div", [("class", "sk-panel"), ("style", "white-space:pre-wrap;overflow-wrap:anywhere")], text: text)
            case .links(let entries):
                html.element("ul", [("class", "sk-store-grid")]) {
                    for entry in entries {
                        html.element("li", [("class", "sk-panel")]) {
                            html.element("a", [("href", entry.url), ("class", "sk-font-headline")], text: entry.title)
                            if !entry.summary.isEmpty { html.element("p", [("class", "sk-product-description")], text: entry.summary) }
                        }
                    }
                }
            }
        }
    }
}
