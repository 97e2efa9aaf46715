import Foundation
import Hummingbird
import StoreEngine
import StoreViews

/// The world's Transaction Manager switches on one page, with their current state: billing
/// retry on renewal, grace period, interrupted purchases, Ask to Buy, failing transactions, the
/// renewal limit, and a simulated error per StoreKit API.
extension ManagePages {
    nonisolated(unsafe) static let switches: [(String, String, KeyPath<WorldSettings, Bool?>)] = [
        ("failRenewals", "Billing retry on renewal (renewals fail with a billing issue)", \.failRenewals),
        ("billingGracePeriod", "Billing grace period", \.billingGracePeriod),
        ("interruptedPurchases", "Interrupted purchases", \.interruptedPurchases),
        ("askToBuy", "Ask to Buy", \.askToBuy),
        ("failTransactions", "Fail transactions (deprecated by Apple)", \.failTransactions),
    ]

    /// `StoreKitError` case names, suggested in the error fields (any name may be typed).

    func settings(_ query: ManageQuery) async throws -> Response {
        let info = try await store.worldInfo(query.world)
        let back = query.url("settings")
        let settings = info.settings
        return ManageDocument.page("Switches of \(info.id)", query, section: .settings) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Switches")
            html.element("p", [("class", "mg-muted")], text: "Unset switches follow each app's catalog settings, as an SKTestSession falls back to its configuration file.")
            ManageForm.open(html, "switches", query: query, back: back, label: "Transaction Manager switches")
            html.element("table", [("class", "mg-table")]) {
                html.element("caption", [("class", "sk-visually-hidden")], text: "Switches")
                Self.head(html, ["Switch", "Now", "Set to"])
                html.open("tbody")
                for (index, (name, title, path)) in Self.switches.enumerated() {
                    let current = settings[keyPath: path]
                    html.element("tr") {
                        html.element("th", [("scope", "row"), ("id", "mg-sw-\(index)")], text: title)
                        html.element("td", [("data-switch", name)], text: current.map { $0 ? "on" : "off" } ?? "catalog default")
                        html.element("td") {
                            html.element("select", [("name", name), ("aria-labelledby", "mg-sw-\(index)")]) {
                                for (value, label) in [("", "leave as it is"), ("on", "on"), ("off", "off")] {
                                    html.element("option", [("value", value), ("selected", value.isEmpty ? "" : nil)], text: label)
                                }
                            }
                        }
                    }
                }
                html.element("tr") {
                    html.element("th", [("scope", "row"), ("id", "mg-sw-limit")], text: "Renewal limit (0 = none)")
                    html.element("td", [("data-switch", "renewalLimit")], text: settings.renewalLimit.map(String.init) ?? "none")
                    html.element("td") {
                        html.open("input", [("name", "renewalLimit"), ("type", "number"), ("min", "0"), ("aria-labelledby", "mg-sw-limit"),
                                            ("value", settings.renewalLimit.map(String.init) ?? "")])
                    }
                }
                html.close("tbody")
            }
            ManageForm.submit(html, "Save switches")
            html.close("form")

            html.element("h2", [("class", "sk-section-title")], text: "Simulated StoreKit errors")
            html.element("table", [("class", "mg-table")]) {
                html.element("caption", [("class", "sk-visually-hidden")], text: "Simulated errors per StoreKit API")
                Self.head(html, ["StoreKit API", "Fails with", "Change"])
                html.open("tbody")
                for (index, api) in AppStore.failableAPIs.enumerated() {
                    let error = settings.simulatedErrors[api]
                    html.element("tr") {
                        html.element("th", [("scope", "row")], text: api)
                        html.element("td", [("data-api", api)], text: error ?? "no error")
                        html.element("td") {
                            // The errors StoreKit Testing offers this API (SKTestFailures), as suggestions.
                            html.element("datalist", [("id", "mg-errors-\(index)")]) {
                                for choice in FailableAPIErrors.errors(for: api) { html.open("option", [("value", choice)]) }
                            }
                            ManageForm.open(html, "simulated-error", query: query, back: back, fields: [("api", api)], inline: true, label: "Simulated error of \(api)")
                            ManageForm.field(html, "error", label: "Error for \(api) (empty clears)", value: error ?? "", id: "mg-err-\(index)", list: "mg-errors-\(index)", maxLength: 100)
                            ManageForm.submit(html, "Set", name: "Set the simulated error of \(api)", kind: .secondary)
                            html.close("form")
                        }
                    }
                }
                html.close("tbody")
            }
        }
    }
}
