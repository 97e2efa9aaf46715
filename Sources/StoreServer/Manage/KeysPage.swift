import Foundation
import Hummingbird
import StoreEngine
import StoreSigning
import StoreViews

/// Server API keys of the world: create one for an app (its `.p8` is shown and offered for
/// download once, never stored), list them, revoke one.
extension ManagePages {
    func keys(_ query: ManageQuery) async throws -> Response {
        let keys = try await store.world(query.world).apiKeys()
        let back = query.url("keys")
        let apps = appOptions
        return ManageDocument.page("API keys of \(query.world)", query, section: .keys) { html in
            html.element("h1", [("class", "sk-section-title")], text: "App Store Server API keys")
            ManageForm.open(html, "create-key", query: query, back: back, label: "Create a key")
            ManageForm.select(html, "app", label: "App", id: "mg-key-app", options: apps, selected: apps.first?.0)
            ManageForm.submit(html, "Create key")
            html.close("form")
            html.element("table", [("class", "mg-table")]) {
                html.element("caption", [("class", "sk-visually-hidden")], text: "Keys")
                Self.head(html, ["Key ID", "Issuer ID", "App", "Created", "Revoke"])
                html.element("tbody") {
                    for key in keys {
                        html.element("tr") {
                            html.element("th", [("scope", "row")], text: key.keyId)
                            html.element("td", text: key.issuerId)
                            html.element("td", text: key.bundleId)
                            html.element("td", text: Self.dateTime(key.createdMs))
                            html.element("td") {
                                ManageForm.button(html, "revoke-key", "Revoke", name: "Revoke key \(key.keyId)", query: query, back: back,
                                                  fields: [("keyId", key.keyId)], kind: .destructive)
                            }
                        }
                    }
                }
            }
            if keys.isEmpty { html.element("p", [("class", "mg-muted")], text: "No keys in this world yet.") }
        }
    }

    /// The answer to "create key": the only time the private key is shown.
    func newKey(_ query: ManageQuery, _ key: GeneratedAPIKey) -> Response {
        let file = "AuthKey_\(key.key.keyId).p8"
        let download = "data:application/octet-stream;base64," + Data(key.privateKeyP8.utf8).base64EncodedString()
        return ManageDocument.page("New key \(key.key.keyId)", query, section: .keys) { html in
            html.element("h1", [("class", "sk-section-title")], text: "New key \(key.key.keyId)")
            html.element("p", [("role", "alert"), ("class", "sk-notice")], text: "Download the private key now: the store does not keep it and cannot show it again.")
            Self.fields(html, [("Key ID", key.key.keyId), ("Issuer ID", key.key.issuerId), ("Bundle ID", key.key.bundleId), ("World", query.world)])
            html.element("a", [("href", download), ("download", file), ("class", "sk-button mg-button")], text: "Download \(file)")
            html.element("label", [("for", "mg-p8"), ("class", "mg-muted"), ("style", "display:block")], text: file)
            html.element("textarea", [("id", "mg-p8"), ("class", "mg-jws"), ("readonly", ""), ("data-copy", "")], text: key.privateKeyP8)
            html.element("p") { html.element("a", [("href", query.url("keys"))], text: "Back to the keys") }
        }
    }
}
