import Foundation
import Hummingbird
import StoreEngine
import StoreViews

/// A world's customers: searchable by customer ID, transaction ID, original transaction ID or
/// appAccountToken, with storefront and locale editable in place.
extension ManagePages {
    func customers(_ query: ManageQuery) async throws -> Response {
        let text = String((query["q"] ?? "").prefix(200))
        let matches = try await store.world(query.world).searchCustomers(text)
        let back = query.url("customers", [("q", text.isEmpty ? nil : text)])
        let app = try app(query)
        return ManageDocument.page("Customers of \(query.world)", query, section: .customers) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Customers")
            html.open("form", [("method", "get"), ("action", "/manage/customers"), ("class", "mg-form"), ("role", "search")])
            ManageForm.hidden(html, "world", query.world)
            if query.scheme != .automatic { ManageForm.hidden(html, "scheme", query.scheme.rawValue) }
            ManageForm.field(html, "q", label: "Customer ID, transaction ID, original transaction ID or appAccountToken", value: text, id: "mg-search", type: "search")
            ManageForm.submit(html, "Search")
            html.close("form")
            if !text.isEmpty {
                html.element("p", [("class", "mg-muted"), ("role", "status")], text: "\(matches.count) customer\(matches.count == 1 ? "" : "s") match “\(text)”.")
            }
            html.element("div", [("class", "mg-scroll")]) {
                html.element("table", [("class", "mg-table")]) {
                    html.element("caption", [("class", "sk-visually-hidden")], text: "Customers")
                    Self.head(html, ["Customer", "Matched by", "Storefront and locale"])
                    html.open("tbody")
                    for (index, match) in matches.enumerated() {
                        let customer = match.customer
                        html.element("tr") {
                            html.element("th", [("scope", "row")]) {
                                html.element("a", [("href", query.url("customer", [("id", customer.name), ("app", app.bundleId)])), ("dir", "auto")], text: customer.name)
                            }
                            html.element("td", text: match.matchedBy)
                            html.element("td") {
                                ManageForm.open(html, "save-customer", query: query, back: back, fields: [("customer", customer.name)], inline: true,
                                                label: "Storefront and locale of \(customer.name)")
                                ManageForm.field(html, "storefront", label: "Storefront", value: customer.storefront, id: "mg-sf-\(index)", maxLength: 3)
                                ManageForm.field(html, "locale", label: "Locale", value: customer.locale, id: "mg-lc-\(index)", maxLength: 20)
                                ManageForm.submit(html, "Save", name: "Save storefront and locale of \(customer.name)", kind: .secondary)
                                html.close("form")
                            }
                        }
                    }
                    html.close("tbody")
                }
            }
            if matches.isEmpty { html.element("p", [("class", "mg-muted")], text: text.isEmpty ? "No customers yet in this world." : "No customer matches.") }
            html.element("h2", [("class", "sk-section-title")], text: "Add a customer")
            ManageForm.open(html, "save-customer", query: query, back: back, label: "Add a customer")
            ManageForm.field(html, "customer", label: "Customer ID", id: "mg-new-customer", required: true)
            ManageForm.field(html, "storefront", label: "Storefront (e.g. USA, FRA)", id: "mg-new-storefront", maxLength: 3)
            ManageForm.field(html, "locale", label: "Locale (e.g. en_US)", id: "mg-new-locale", maxLength: 20)
            ManageForm.submit(html, "Add customer")
            html.close("form")
        }
    }
}
