import Foundation
import Hummingbird
import StoreShared

/// Customer lookup and the customer page: what customer info says (entitlements, subscriptions,
/// purchases) and the timeline of the customer's events with their webhook deliveries.
extension DashboardPages {
    static func customers(search: String, matches: [DashboardCustomerMatch], total: Int, signOut: Bool) -> Response {
        DashboardDocument.page(search.isEmpty ? "Customers" : "Customers matching \(search)", section: .customers, signOut: signOut) { html in
            html.element("h1", text: "Customers")
            searchForm(html, value: search)
            if search.isEmpty {
                html.element("p", [("class", "bd-muted")],
                             text: "\(total) customer\(total == 1 ? "" : "s") in all; the \(matches.count) seen last:")
            } else {
                html.element("p", [("role", "status")],
                             text: matches.isEmpty ? "No customer matches “\(search)”."
                                 : "\(matches.count) customer\(matches.count == 1 ? "" : "s") match “\(search)”.")
            }
            guard !matches.isEmpty else { return }
            html.element("div", [("class", "bd-scroll")]) {
                html.element("table", [("aria-label", "Customers")]) {
                    html.element("thead") {
                        html.element("tr") {
                            html.element("th", [("scope", "col")], text: "App user ID")
                            html.element("th", [("scope", "col")], text: "First seen by the backend")
                            if !search.isEmpty { html.element("th", [("scope", "col")], text: "Matched by") }
                        }
                    }
                    html.element("tbody") {
                        for match in matches {
                            html.element("tr") {
                                html.element("td") {
                                    html.element("a", [("href", DashboardDocument.customerURL(match.appUserId))], text: match.appUserId)
                                }
                                html.element("td", text: DashboardDocument.time(match.firstSeenMs))
                                if !search.isEmpty { html.element("td", text: match.matchedBy ?? "") }
                            }
                        }
                    }
                }
            }
        }
    }

    static func customer(_ info: CustomerInfo, events: [WebhookPayload], outbox: [OutboxRow], signOut: Bool) -> Response {
        DashboardDocument.page("Customer \(info.appUserId)", section: .customers, signOut: signOut) { html in
            html.element("h1") {
                html.text("Customer ")
                html.element("span", [("class", "bd-user")], text: info.appUserId)
            }
            html.element("p", [("class", "bd-muted")],
                         text: "First seen \(DashboardDocument.time(info.firstSeen)); state at \(DashboardDocument.time(info.requestDate)) on the store's clock. The same as GET /v1/customers/{appUserId}.")
            identity(info, html)
            entitlements(info, html)
            subscriptions(info, html)
            purchases(info, html)
            timeline(events, outbox: outbox, html)
        }
    }

    static func table(_ html: HTMLWriter, label: String, columns: [String], rows: [[String]]) {
        html.element("div", [("class", "bd-scroll")]) {
            html.element("table", [("aria-label", label)]) {
                html.element("thead") {
                    html.element("tr") { for column in columns { html.element("th", [("scope", "col")], text: column) } }
                }
                html.element("tbody") {
                    for row in rows {
                        html.element("tr") {
                            for (index, cell) in row.enumerated() {
                                if index == 0 { html.element("th", [("scope", "row")], text: cell) } else { html.element("td", text: cell) }
                            }
                        }
                    }
                }
            }
        }
    }

    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    /// Who the customer is: the IDs naming them, when the app last asked, what it set.
    static func identity(_ info: CustomerInfo, _ html: HTMLWriter) {
        html.element("h2", text: "Identity")
        table(html, label: "Identity", columns: ["Field", "Value"], rows: [
            ["Original app user ID", info.originalAppUserId],
            ["Aliases", info.aliases.isEmpty ? "none" : info.aliases.joined(separator: ", ")],
            ["Last seen by the app", info.lastSeen.map { DashboardDocument.time($0) } ?? "never"],
        ])
        guard !info.subscriberAttributes.isEmpty else { return }
        table(html, label: "Attributes", columns: ["Attribute", "Value", "Set"],
              rows: info.subscriberAttributes.keys.sorted().map { key in
                  let attribute = info.subscriberAttributes[key]!
                  return [key, attribute.value, DashboardDocument.time(attribute.updatedAt)]
              })
    }

    static func entitlements(_ info: CustomerInfo, _ html: HTMLWriter) {
        html.element("h2", text: "Entitlements")
        guard !info.entitlements.isEmpty else { html.element("p", text: "None."); return }
        table(html, label: "Entitlements",
              columns: ["Entitlement", "Active", "Store", "Product", "Expires", "Will renew", "Period", "Billing issue", "Grace until", "Environment", "Ownership"],
              rows: info.entitlements.keys.sorted().map { name in
                  let e = info.entitlements[name]!
                  return [name, yesNo(e.isActive), e.store, e.productId, DashboardDocument.time(e.expiresDate), yesNo(e.willRenew), e.periodType,
                          DashboardDocument.time(e.billingIssueDetectedAt), DashboardDocument.time(e.gracePeriodExpiresDate),
                          e.environment, e.ownershipType]
              })
    }

    static let statusNames = [1: "active", 2: "expired", 3: "billing retry", 4: "grace period", 5: "revoked"]

    static func subscriptions(_ info: CustomerInfo, _ html: HTMLWriter) {
        html.element("h2", text: "Subscriptions")
        guard !info.subscriptions.isEmpty else { html.element("p", text: "None."); return }
        table(html, label: "Subscriptions",
              columns: ["Original transaction", "Product", "Status", "Expires", "Will renew", "Renews to", "Price", "Period", "Environment"],
              rows: info.subscriptions.map { s in
                  [s.originalTransactionId, s.productId, "\(s.status) (\(statusNames[s.status] ?? "unknown"))",
                   DashboardDocument.time(s.expiresDate), yesNo(s.willRenew), s.autoRenewProductId ?? "—",
                   DashboardDocument.money(s.price, s.currency), s.periodType, s.environment]
              })
    }

    static func purchases(_ info: CustomerInfo, _ html: HTMLWriter) {
        html.element("h2", text: "Other purchases")
        guard !info.nonSubscriptions.isEmpty else { html.element("p", text: "None."); return }
        table(html, label: "Other purchases",
              columns: ["Transaction", "Product", "Type", "Bought", "Refunded", "Price", "Environment"],
              rows: info.nonSubscriptions.map { p in
                  [p.transactionId, p.productId, p.type, DashboardDocument.time(p.purchaseDate), DashboardDocument.time(p.revocationDate),
                   DashboardDocument.money(p.price, p.currency), p.environment]
              })
    }

    /// The customer's events, oldest first, each with how its webhooks fared.
    static func timeline(_ events: [WebhookPayload], outbox: [OutboxRow], _ html: HTMLWriter) {
        html.element("h2", text: "Timeline")
        guard !events.isEmpty else { html.element("p", text: "No events yet."); return }
        let deliveries = Dictionary(grouping: outbox, by: \.eventId)
        html.element("ol", [("class", "bd-timeline"), ("aria-label", "Events, oldest first")]) {
            for event in events {
                html.element("li", [("data-event", event.type)]) {
                    html.element("span", [("class", "bd-event")], text: event.type)
                    html.text(" · ")
                    html.element("time", text: DashboardDocument.time(event.eventTimestampMs))
                    html.element("div") {
                        var parts = [event.productId]
                        if let price = event.priceMilliunits { parts.append(DashboardDocument.money(price, event.currency)) }
                        parts.append(event.periodType)
                        parts.append(event.environment)
                        if let id = event.transactionId { parts.append("transaction \(id)") }
                        html.text(parts.joined(separator: " · "))
                    }
                    let rows = deliveries[event.id] ?? []
                    html.element("div", [("class", "bd-muted")]) {
                        if rows.isEmpty {
                            html.text("Event \(event.id); no webhook configured.")
                        } else {
                            let states = Dictionary(grouping: rows, by: \.state).map { "\($0.value.count) \($0.key)" }.sorted()
                            let attempts = rows.reduce(0) { $0 + $1.attempts }
                            html.text("Event \(event.id); webhooks: \(states.joined(separator: ", ")) after \(attempts) attempt\(attempts == 1 ? "" : "s").")
                        }
                    }
                }
            }
        }
    }
}
