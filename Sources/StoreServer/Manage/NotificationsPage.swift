import Foundation
import Hummingbird
import StoreEngine
import StoreViews

/// Server notifications per app: its URLs per environment, a "request test notification"
/// button, and the delivery log (newest first) with each row's type and subtype, decoded
/// payload, every attempt with its `sendAttemptResult`, the next retry, and "send now" for a
/// waiting one. Filters: failures only, type, customer.
extension ManagePages {
    func notifications(_ query: ManageQuery) async throws -> Response {
        let app = try app(query)
        let urls = try await store.world(query.world).notificationURLs(bundleId: app.bundleId)
        let failures = query["failures"] == "1"
        let log = try await store.world(query.world).notificationLog(bundleId: app.bundleId, type: query["type"], customer: query["customer"],
                                                  failuresOnly: failures, limit: 100)
        let back = query.url("notifications", [("app", app.bundleId), ("failures", failures ? "1" : nil), ("type", query["type"]), ("customer", query["customer"])])
        let apps = appOptions
        return ManageDocument.page("Notifications of \(query.world)", query, section: .notifications) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Server notifications")
            html.element("nav", [("aria-label", "Apps"), ("class", "mg-legend")]) {
                for (id, title) in apps {
                    html.element("a", [("href", query.url("notifications", [("app", id)])), ("aria-current", id == app.bundleId ? "page" : nil)], text: title)
                }
            }
            html.element("section", [("class", "mg-card"), ("aria-labelledby", "mg-urls")]) {
                html.element("h2", [("id", "mg-urls")], text: "URLs of \(app.name)")
                html.element("p", [("class", "mg-muted")], text: "Notifications are sent in the app's environment (\(urls.environment)), to its URL for that environment.")
                for (environment, url) in [("Production", urls.productionURL), ("Sandbox", urls.sandboxURL)] {
                    ManageForm.open(html, "notification-url", query: query, back: back, fields: [("app", app.bundleId), ("environment", environment)],
                                    label: "\(environment) notification URL")
                    ManageForm.field(html, "url", label: "\(environment) URL (empty removes it)", value: url ?? "", id: "mg-url-\(environment)",
                                     placeholder: "http://127.0.0.1:8090/", type: "url", maxLength: 2048)
                    ManageForm.submit(html, "Save", name: "Save the \(environment) notification URL", kind: .secondary)
                    html.close("form")
                }
                ManageForm.button(html, "test-notification", "Request test notification", query: query, back: back, fields: [("app", app.bundleId)])
            }
            html.open("form", [("method", "get"), ("action", "/manage/notifications"), ("class", "mg-form"), ("aria-label", "Filter the log")])
            ManageForm.hidden(html, "world", query.world)
            ManageForm.hidden(html, "app", app.bundleId)
            if query.scheme != .automatic { ManageForm.hidden(html, "scheme", query.scheme.rawValue) }
            ManageForm.field(html, "type", label: "Type", value: query["type"] ?? "", id: "mg-f-type", placeholder: "DID_RENEW", list: "mg-types", maxLength: 64)
            html.element("datalist", [("id", "mg-types")]) {
                for type in ["SUBSCRIBED", "DID_RENEW", "DID_FAIL_TO_RENEW", "DID_CHANGE_RENEWAL_STATUS", "DID_CHANGE_RENEWAL_PREF", "EXPIRED",
                             "GRACE_PERIOD_EXPIRED", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "REVOKE", "CONSUMPTION_REQUEST", "OFFER_REDEEMED",
                             "PRICE_INCREASE", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION", "ONE_TIME_CHARGE", "TEST"] {
                    html.open("option", [("value", type)])
                }
            }
            ManageForm.field(html, "customer", label: "Customer", value: query["customer"] ?? "", id: "mg-f-customer")
            html.element("span", [("class", "mg-field")]) {
                html.element("label", [("for", "mg-f-failures")], text: "Failures only")
                html.open("input", [("type", "checkbox"), ("id", "mg-f-failures"), ("name", "failures"), ("value", "1"), ("checked", failures ? "" : nil)])
            }
            ManageForm.submit(html, "Filter")
            html.close("form")
            html.element("h2", [("class", "sk-section-title"), ("id", "mg-log")], text: "Delivery log (\(log.count)\(log.count == 100 ? ", newest 100" : ""))")
            if log.isEmpty { html.element("p", [("class", "mg-muted")], text: "No notifications match.") }
            for entry in log {
                let n = entry.summary
                let state = n.delivered ? ("mg-ok", "delivered") : n.nextAttemptDate == nil ? ("mg-fail", "given up") : ("mg-state-grace", "waiting")
                html.element("article", [("class", "mg-card mg-notification"), ("aria-labelledby", "mg-n-\(n.seq)"), ("data-type", n.notificationType)]) {
                    html.element("h3", [("id", "mg-n-\(n.seq)")]) {
                        html.text(n.notificationType + (n.subtype.map { " / \($0)" } ?? ""))
                        html.text(" ")
                        html.element("span", [("class", "mg-badge \(state.0)")], text: state.1)
                    }
                    Self.fields(html, [("Customer", n.customer.isEmpty ? nil : n.customer), ("Transaction", n.transactionId), ("notificationUUID", n.notificationUUID),
                                       ("Signed", Self.dateTime(n.signedDate)), ("Next retry", n.nextAttemptDate.map { Self.dateTime($0) }),
                                       ("testNotificationToken", n.testNotificationToken)])
                    html.element("table", [("class", "mg-table mg-attempts")]) {
                        html.element("caption", [("class", "mg-muted"), ("style", "text-align:start")], text: n.sendAttempts.isEmpty ? "No send attempts yet" : "Send attempts")
                        if !n.sendAttempts.isEmpty {
                            Self.head(html, ["attemptDate", "sendAttemptResult"])
                            html.element("tbody") {
                                for attempt in n.sendAttempts {
                                    html.element("tr") {
                                        html.element("td", text: Self.dateTime(attempt.attemptDate))
                                        html.element("td", [("class", attempt.sendAttemptResult == "SUCCESS" ? "mg-ok" : "mg-fail")], text: attempt.sendAttemptResult)
                                    }
                                }
                            }
                        }
                    }
                    html.element("details", [("class", "mg-details")]) {
                        html.element("summary", text: "Decoded payload")
                        html.element("pre", [("class", "mg-pre")], text: entry.payloadJSON)
                        if let transaction = entry.transactionJSON {
                            html.element("p", [("class", "mg-muted")], text: "signedTransactionInfo, decoded")
                            html.element("pre", [("class", "mg-pre")], text: transaction)
                        }
                        if let renewal = entry.renewalInfoJSON {
                            html.element("p", [("class", "mg-muted")], text: "signedRenewalInfo, decoded")
                            html.element("pre", [("class", "mg-pre")], text: renewal)
                        }
                    }
                    if !n.delivered, n.nextAttemptDate != nil {
                        ManageForm.button(html, "send-now", "Send now", name: "Send notification \(n.notificationUUID) now", query: query, back: back,
                                          fields: [("seq", String(n.seq))])
                    }
                }
            }
        }
    }
}
