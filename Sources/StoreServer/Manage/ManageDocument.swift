import Hummingbird
import StoreViews
import StoreShared

/// A dashboard page as a complete document: the store pages' renderer, stylesheet and security
/// headers, with the dashboard's navigation in the header and its own few styles and script
/// inline (nothing is fetched). Forms post natively (`data-sk-native`), so every page works the
/// same with JavaScript off.
enum ManageDocument {
    enum Section: String, CaseIterable {
        case worlds, world, customers, settings, notifications, events, keys, charts

        var title: String {
            switch self {
            case .worlds: "Worlds"
            case .world: "Clock"
            case .customers: "Customers"
            case .settings: "Switches"
            case .notifications: "Notifications"
            case .events: "Events"
            case .keys: "API keys"
            case .charts: "Charts"
            }
        }
    }

    static func page(_ title: String, _ query: ManageQuery, section: Section?, status: HTTPResponse.Status = .ok,
                     _ body: @escaping (HTMLWriter) -> Void) -> Response {
        HTMLResponse.page(html(title, query, section: section, body), status: status)
    }

    static func html(_ title: String, _ query: ManageQuery, section: Section?, _ body: @escaping (HTMLWriter) -> Void) -> String {
        let header = Chrome(query: query, section: section)
        let content = Drawing(draw: { html in
            html.trusted("<style>\(ManageStyle.css)</style>")
            body(html)
            html.trusted("<script>\(ManageScript.js)</script>")
        })
        return PageRenderer.render(content, store: StoreSnapshot(products: []), options: .init(
            title: "\(title) · OpenStoreKit Transaction Manager", colorScheme: query.scheme, notice: query.notice,
            header: section == nil ? nil : AnyView(header))).html
    }

    /// HTML written by a closure, as a view.
    struct Drawing: PrimitiveView {
        let draw: (HTMLWriter) -> Void
        func _render(_ context: RenderContext, _ html: HTMLWriter) { draw(html) }
    }

    /// The header: where you are and the way to every page of the world.
    struct Chrome: PrimitiveView {
        let query: ManageQuery
        let section: Section?

        func _render(_ context: RenderContext, _ html: HTMLWriter) {
            html.element("nav", [("aria-label", "Transaction Manager"), ("class", "mg-nav")]) {
                html.element("a", [("href", query.url("")), ("class", "mg-brand"), ("aria-current", section == .worlds ? "page" : nil)],
                             text: "Transaction Manager")
                if section != .worlds {
                    html.element("span", [("class", "mg-world")], text: "World: \(query.world)")
                    html.open("ul")
                    for item in Section.allCases where item != .worlds {
                        html.element("li") {
                            html.element("a", [("href", query.url(item.rawValue)), ("aria-current", item == section ? "page" : nil)], text: item.title)
                        }
                    }
                    html.close("ul")
                }
                html.element("a", [("href", "/store?" + FormEncoding.query([("world", query.world)]))], text: "Store pages")
            }
        }
    }
}
