import StoreViews
import StoreShared

/// The demo pages' header: who is signed in, as a GET form (works without JavaScript). The
/// field suggests the world's known customers and takes any new name; world and scheme ride
/// along in hidden fields so switching customer never switches world.
struct CustomerPickerView: PrimitiveView {
    /// The form's target: the page itself, or the index.
    let formURL: String
    let query: StorePageQuery
    let knownCustomers: [String]

    func _render(_ context: RenderContext, _ html: HTMLWriter) {
        html.element("nav", [("aria-label", "Store pages")]) {
            html.element("a", [("href", query.indexURL())], text: "← All stores")
        }
        html.open("form", [("method", "get"), ("action", formURL), ("class", "sk-customer-picker")])
        html.element("label", [("for", "sk-customer-field")], text: "Customer")
        html.open("input", [("id", "sk-customer-field"), ("name", "customer"), ("value", query.customer), ("list", "sk-customer-list"),
                            ("required", ""), ("maxlength", "200"), ("autocomplete", "off"), ("spellcheck", "false")])
        html.element("datalist", [("id", "sk-customer-list")]) {
            for name in knownCustomers { html.open("option", [("value", name)]) }
        }
        html.open("input", [("type", "hidden"), ("name", "world"), ("value", query.world)])
        if query.scheme != .automatic {
            html.open("input", [("type", "hidden"), ("name", "scheme"), ("value", query.scheme.rawValue)])
        }
        html.element("button", [("type", "submit"), ("class", "sk-button")], text: "Switch")
        html.element("span", [("class", "sk-font-caption")], text: "World: \(query.world)")
        html.close("form")
    }
}
