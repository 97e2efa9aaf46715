import Foundation
import Hummingbird
import StoreEngine
import StoreModel
import StoreViews
import StoreShared

/// One customer in one app: subscriptions (state, renewal info, timeline) and their actions, the
/// transactions newest first (decoded, with their JWS and revocation) and theirs, the app
/// transaction, pending Ask to Buy and interrupted purchases, refund requests, messages and
/// family sharing. The Transaction Manager's actions sit beside what they act on.
extension ManagePages {
    /// Transactions per page: each carries its JWS (three certificates in `x5c`), so a page stays light.
    static let pageSize = 10

    /// Everything the customer page shows, read through the engine.
    struct CustomerData {
        var customer: String
        var storefront: String?
        var locale: String?
        var app: StoreApp
        var history: CustomerHistory
        var statuses: [SubscriptionStatusItem]
        var appTransaction: Signed<AppTransactionPayload>?
        var pending: [PendingPurchase]
        var refundRequests: [RefundRequest]
        var messages: [StoreMessage]
        var family: FamilyMembership
        var nowMs: Int64
        /// Product ID → display name in the customer's locale (catalog text: always escaped).
        var names: [String: String] = [:]

        func name(_ productId: String) -> String { names[productId] ?? productId }
    }

    func customerData(_ query: ManageQuery) async throws -> CustomerData {
        // The id is a customer's name as written (names may start or end with a space), and one
        // no account can have is refused, as openapi.json's `CustomerName` says.
        guard let customer = query.fields["id"], !customer.isEmpty else { throw RequestError.malformed("Which customer? The address has no id.") }
        try AppStore.checkCustomerName(customer)
        let app = try app(query)
        let page = max(0, Int(query["page"] ?? "0") ?? 0)
        let world = query.world
        let record = try await store.world(world).customer(customer)
        let locale = record?.locale ?? app.catalog.settings.locale
        var data = CustomerData(
            customer: customer, storefront: record?.storefront, locale: record?.locale, app: app,
            history: try await store.world(world).customerHistory(bundleId: app.bundleId, customer: customer, offset: page * Self.pageSize, limit: Self.pageSize),
            statuses: try await store.world(world).subscriptionStatuses(bundleId: app.bundleId, customer: customer),
            appTransaction: try await store.world(world).existingAppTransaction(bundleId: app.bundleId, customer: customer),
            pending: try await store.world(world).pendingPurchases().filter { $0.request.customer == customer && $0.request.bundleId == app.bundleId },
            refundRequests: try await store.world(world).refundRequests().filter { $0.customer == customer && $0.bundleId == app.bundleId },
            messages: try await store.world(world).allMessages(bundleId: app.bundleId, customer: customer),
            family: try await store.world(world).family(of: customer),
            nowMs: try await store.world(world).nowMs())
        data.names = Dictionary(app.catalog.products.map { ($0.id, $0.localization(for: locale)?.displayName ?? $0.id) }, uniquingKeysWith: { first, _ in first })
        return data
    }

    func customer(_ query: ManageQuery) async throws -> Response {
        let data = try await customerData(query)
        return HTMLResponse.page(Self.customerHTML(data, query: query, apps: appOptions))
    }

    /// The page's HTML (the benchmark renders it without HTTP).
    static func customerHTML(_ data: CustomerData, query: ManageQuery, apps: [(String, String)]) -> String {
        let customer = data.customer, bundleId = data.app.bundleId
        let page = data.history.offset / pageSize
        let back = query.url("customer", [("id", customer), ("app", bundleId), ("page", page == 0 ? nil : String(page))])
        return ManageDocument.html("Customer \(customer)", query, section: .customers) { html in
            html.element("h1", [("class", "sk-section-title")]) {
                html.text("Customer ")
                html.element("bdi", text: customer)
            }
            html.element("nav", [("aria-label", "Apps"), ("class", "mg-legend")]) {
                for (id, title) in apps {
                    html.element("a", [("href", query.url("customer", [("id", customer), ("app", id)])), ("aria-current", id == bundleId ? "page" : nil)], text: title)
                }
            }
            ManageForm.open(html, "save-customer", query: query, back: back, fields: [("customer", customer)], label: "Storefront and locale")
            ManageForm.field(html, "storefront", label: "Storefront", value: data.storefront ?? "", id: "mg-storefront", maxLength: 3)
            ManageForm.field(html, "locale", label: "Locale", value: data.locale ?? "", id: "mg-locale", maxLength: 20)
            ManageForm.submit(html, "Save", name: "Save storefront and locale", kind: .secondary)
            html.close("form")

            subscriptions(html, data, query: query, back: back)
            pendingPurchases(html, data, query: query, back: back)
            transactions(html, data, query: query, back: back)
            appTransaction(html, data, query: query, back: back)
            refundRequests(html, data, query: query, back: back)
            messages(html, data, query: query, back: back)
            family(html, data, query: query, back: back)

            html.element("h2", [("class", "sk-section-title")], text: "Clear transactions")
            ManageForm.button(html, "clear", "Clear transactions", name: "Clear every transaction of \(customer) in \(bundleId)", query: query, back: back,
                              fields: [("customer", customer), ("app", bundleId)], kind: .destructive)
        }
    }

    // MARK: Subscriptions

    static func stateName(_ status: SubscriptionStatus) -> (String, String) {
        switch status {
        case .active: ("active", "Active")
        case .expired: ("expired", "Expired")
        case .billingRetry: ("billing-retry", "Billing retry")
        case .billingGracePeriod: ("grace", "Grace period")
        case .revoked: ("revoked", "Revoked")
        }
    }

    static func subscriptions(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        html.element("h2", [("class", "sk-section-title"), ("id", "mg-subscriptions")], text: "Subscriptions")
        if data.statuses.isEmpty { html.element("p", [("class", "mg-muted")], text: "No subscriptions in this app.") }
        for item in data.statuses {
            let info = item.renewalInfo.payload, latest = item.transaction.payload
            let (state, title) = stateName(item.status)
            let id = latest.transactionId
            html.element("section", [("class", "mg-card"), ("aria-label", "Subscription \(item.originalTransactionId)")]) {
                html.element("h3") {
                    html.element("bdi", text: data.name(latest.productId))
                    html.element("span", [("class", "mg-muted")], text: " (\(latest.productId)) ")
                    html.element("span", [("class", "mg-badge mg-state-\(state)")], text: title)
                }
                fields(html, [
                    ("Original transaction", item.originalTransactionId), ("Group", item.groupId), ("Latest transaction", id),
                    ("Expires", dateTime(latest.expiresDate)), ("Auto-renew", info.autoRenewStatus.rawValue == 1 ? "on" : "off"),
                    ("Renews to", info.autoRenewProductId), ("Renewal date", dateTime(info.renewalDate)),
                    ("Renewal price", info.renewalPrice.map { "\(ManageActions.milliunits($0)) \(info.currency ?? "")" }),
                    ("Expiration intent", info.expirationIntent.map { String($0.rawValue) }),
                    ("In billing retry", info.isInBillingRetryPeriod.map { $0 ? "yes" : "no" }),
                    ("Grace period ends", info.gracePeriodExpiresDate.map { dateTime($0) }),
                    ("Price increase", info.priceIncreaseStatus.map { $0.rawValue == 1 ? "accepted" : "pending consent" }),
                ])
                SubscriptionTimeline(originalId: Int64(item.originalTransactionId) ?? 0, runs: data.history.runs, nowMs: data.nowMs,
                                     state: state, gracePeriodEndsMs: info.gracePeriodExpiresDate).draw(html)
                html.element("label", [("for", "mg-ri-\(item.originalTransactionId)"), ("class", "mg-muted")], text: "signedRenewalInfo (JWS)")
                html.element("textarea", [("id", "mg-ri-\(item.originalTransactionId)"), ("class", "mg-jws"), ("readonly", ""), ("data-copy", ""),
                                          ("aria-label", "signedRenewalInfo of \(item.originalTransactionId)")], text: item.renewalInfo.jws)
                if latest.inAppOwnershipType == .familyShared {
                    // A member's copy follows the purchaser's subscription: the actions belong there.
                    html.element("p", [("class", "mg-muted")],
                                 text: "Shared through Family Sharing: it follows the purchaser's subscription; act on theirs.")
                    return
                }
                html.element("div", [("class", "mg-actions"), ("role", "group"), ("aria-label", "Actions on subscription \(item.originalTransactionId)")]) {
                    let on = [("transactionId", id)]
                    ManageForm.button(html, "renew", "Force renew", name: "Force renewal of \(item.originalTransactionId)", query: query, back: back, fields: on)
                    ManageForm.button(html, "expire", "Expire", name: "Expire subscription \(item.originalTransactionId)", query: query, back: back, fields: on, kind: .destructive)
                    let renewing = info.autoRenewStatus.rawValue == 1
                    ManageForm.button(html, "auto-renew", renewing ? "Turn auto-renew off" : "Turn auto-renew on",
                                      name: "\(renewing ? "Turn auto-renew off" : "Turn auto-renew on") for \(item.originalTransactionId)", query: query, back: back,
                                      fields: on + [("enabled", renewing ? "off" : "on")], kind: .secondary)
                    if item.status == .billingRetry || item.status == .billingGracePeriod {
                        ManageForm.button(html, "resolve", "Resolve billing issue", name: "Resolve the billing issue of \(item.originalTransactionId)",
                                          query: query, back: back, fields: [("id", id)])
                    }
                    if info.priceIncreaseStatus?.rawValue == 0 {
                        ManageForm.button(html, "price-consent", "Consent to price increase", query: query, back: back, fields: on)
                        ManageForm.button(html, "price-decline", "Decline price increase", query: query, back: back, fields: on, kind: .secondary)
                    }
                }
                let oid = item.originalTransactionId
                ManageForm.open(html, "price-increase", query: query, back: back, fields: [("transactionId", id)], label: "Price increase for \(oid)")
                ManageForm.field(html, "newPrice", label: "New price (\(latest.currency))", id: "mg-price-\(oid)", placeholder: "5.99", required: true, maxLength: 20)
                ManageForm.select(html, "mode", label: "Kind", id: "mg-mode-\(oid)", options: [("consent", "Needs consent"), ("notify", "Notify only")], selected: "consent")
                ManageForm.submit(html, "Request price increase", name: "Request a price increase for \(oid)", kind: .secondary)
                html.close("form")
                ManageForm.open(html, "extend", query: query, back: back, fields: [("originalTransactionId", oid), ("app", data.app.bundleId)],
                                label: "Extend the renewal date of \(oid)")
                ManageForm.field(html, "days", label: "Extend by days (1–90)", id: "mg-days-\(oid)", required: true, type: "number", maxLength: 2)
                ManageForm.select(html, "reasonCode", label: "Reason", id: "mg-reason-\(oid)",
                                  options: [("0", "0 Undeclared"), ("1", "1 Customer satisfaction"), ("2", "2 Other"), ("3", "3 Service issue or outage")], selected: "0")
                ManageForm.submit(html, "Extend renewal date", name: "Extend the renewal date of \(oid)", kind: .secondary)
                html.close("form")
            }
        }
    }

    // MARK: Pending purchases

    static func pendingPurchases(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        html.element("h2", [("class", "sk-section-title")], text: "Ask to Buy and interrupted purchases")
        guard !data.pending.isEmpty else {
            html.element("p", [("class", "mg-muted")], text: "Nothing waits for approval or attention.")
            return
        }
        html.element("ul", [("class", "mg-grid"), ("style", "list-style:none;padding:0")]) {
            for item in data.pending {
                html.element("li", [("class", "mg-card")]) {
                    html.element("p") {
                        html.element("strong", text: item.kind == .askToBuy ? "Ask to Buy: " : "Interrupted: ")
                        html.element("bdi", text: data.name(item.request.productId))
                        html.text(" (\(item.request.productId))")
                    }
                    fields(html, [("Request", item.id), ("Since", dateTime(item.createdMs)), ("Quantity", String(item.request.quantity))])
                    if item.kind == .askToBuy {
                        ManageForm.button(html, "approve", "Approve", name: "Approve \(item.request.productId) (\(item.id))", query: query, back: back, fields: [("pendingId", item.id)])
                        ManageForm.button(html, "decline", "Decline", name: "Decline \(item.request.productId) (\(item.id))", query: query, back: back,
                                          fields: [("pendingId", item.id)], kind: .secondary)
                    } else {
                        ManageForm.button(html, "resolve", "Resolve interrupted purchase", name: "Resolve interrupted purchase \(item.id)",
                                          query: query, back: back, fields: [("id", item.id)])
                    }
                }
            }
        }
    }

    // MARK: Transactions

    static func transactions(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        let history = data.history
        html.element("h2", [("class", "sk-section-title"), ("id", "mg-transactions")], text: "Transactions (\(history.total))")
        if history.total == 0 { html.element("p", [("class", "mg-muted")], text: "No transactions in this app.") }
        for signed in history.transactions {
            let t = signed.payload
            let revoked = t.revocationDate != nil
            html.element("article", [("class", "mg-card"), ("aria-labelledby", "mg-t-\(t.transactionId)")]) {
                html.element("h3", [("id", "mg-t-\(t.transactionId)")]) {
                    html.element("bdi", text: data.name(t.productId))
                    html.text(" · \(t.transactionId)")
                    if t.transactionId != t.originalTransactionId { html.element("span", [("class", "mg-muted")], text: " (renewal of \(t.originalTransactionId))") }
                    if revoked { html.element("span", [("class", "mg-badge mg-state-revoked")], text: " Revoked") }
                }
                fields(html, [
                    ("Product", t.productId), ("Purchased", dateTime(t.purchaseDate)), ("Expires", t.expiresDate.map { dateTime($0) }), ("Type", t.type.rawValue),
                    ("Price", "\(ManageActions.milliunits(t.price)) \(t.currency)"), ("Storefront", t.storefront), ("Reason", t.transactionReason.rawValue),
                    ("Ownership", t.inAppOwnershipType.rawValue), ("Offer", t.offerType.map { "type \($0.rawValue) \(t.offerIdentifier ?? "")" }),
                    ("appAccountToken", t.appAccountToken), ("Upgraded", t.isUpgraded.map { $0 ? "yes" : "no" }),
                    ("Revoked", t.revocationDate.map { dateTime($0) }),
                    ("Revocation reason", t.revocationReason.map { $0 == .dueToIssue ? "1 (an issue in the app)" : "0 (other)" }),
                    ("Revocation type", t.revocationType?.rawValue),
                ])
                html.element("details", [("class", "mg-details")]) {
                    html.element("summary", text: "Decoded payload and JWS")
                    html.element("pre", [("class", "mg-pre")], text: String(decoding: t.jsonBytes, as: UTF8.self))
                    html.element("textarea", [("class", "mg-jws"), ("readonly", ""), ("data-copy", ""), ("aria-label", "signedTransaction \(t.transactionId)")], text: signed.jws)
                }
                html.element("div", [("class", "mg-actions"), ("role", "group"), ("aria-label", "Actions on transaction \(t.transactionId)")]) {
                    let on = [("transactionId", t.transactionId)]
                    if !revoked {
                        ManageForm.button(html, "refund", "Refund", name: "Refund transaction \(t.transactionId)", query: query, back: back, fields: on, kind: .destructive)
                        ManageForm.button(html, "revoke", "Revoke", name: "Revoke transaction \(t.transactionId) for an issue in the app", query: query, back: back,
                                          fields: on, kind: .destructive)
                        ManageForm.button(html, "refund-request", "Request refund", name: "The customer requests a refund of \(t.transactionId)",
                                          query: query, back: back, fields: on, kind: .secondary)
                    } else if t.revocationType != .familyRevoke {
                        ManageForm.button(html, "reverse-refund", "Reverse refund", name: "Reverse the refund of \(t.transactionId)", query: query, back: back, fields: on, kind: .secondary)
                    }
                    ManageForm.button(html, "delete-transaction", "Delete", name: "Delete transaction \(t.transactionId)", query: query, back: back, fields: on, kind: .destructive)
                }
            }
        }
        let page = history.offset / pageSize
        html.element("nav", [("aria-label", "Transaction pages"), ("class", "mg-legend")]) {
            if page > 0 {
                html.element("a", [("href", query.url("customer", [("id", data.customer), ("app", data.app.bundleId), ("page", String(page - 1))]))], text: "Newer transactions")
            }
            if history.offset + history.transactions.count < history.total {
                html.element("a", [("href", query.url("customer", [("id", data.customer), ("app", data.app.bundleId), ("page", String(page + 1))]))], text: "Older transactions")
            }
        }
    }

    // MARK: App transaction, refund requests, messages, family

    static func appTransaction(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        html.element("h2", [("class", "sk-section-title")], text: "App transaction")
        if let signed = data.appTransaction {
            let a = signed.payload
            fields(html, [("appTransactionId", a.appTransactionId), ("originalApplicationVersion", a.originalApplicationVersion),
                          ("applicationVersion", a.applicationVersion), ("originalPurchaseDate", dateTime(a.originalPurchaseDate))])
        } else {
            html.element("p", [("class", "mg-muted")], text: "The app has not asked for it yet; saving a version creates it.")
        }
        ManageForm.open(html, "app-version", query: query, back: back, fields: [("customer", data.customer), ("app", data.app.bundleId)], label: "originalApplicationVersion")
        ManageForm.field(html, "originalApplicationVersion", label: "originalApplicationVersion", value: data.appTransaction?.payload.originalApplicationVersion ?? "",
                         id: "mg-oav", required: true, maxLength: 64)
        ManageForm.submit(html, "Save version", kind: .secondary)
        html.close("form")
    }

    static func refundRequests(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        html.element("h2", [("class", "sk-section-title")], text: "Refund requests")
        guard !data.refundRequests.isEmpty else {
            html.element("p", [("class", "mg-muted")], text: "No refund requests.")
            return
        }
        html.element("ul") {
            for request in data.refundRequests {
                html.element("li") {
                    html.text("Transaction \(request.transactionId), \(request.reason), asked \(dateTime(request.requestedDate)): \(request.state.rawValue) ")
                    if request.state == .pending {
                        for (decision, title) in [("grant", "Grant"), ("decline", "Decline"), ("auto", "Follow refundPreference")] {
                            ManageForm.button(html, "refund-decide", title, name: "\(title) refund request \(request.id)", query: query, back: back,
                                              fields: [("requestId", request.id), ("decision", decision)], kind: decision == "grant" ? .normal : .secondary)
                        }
                    }
                }
            }
        }
    }

    static func messages(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        html.element("h2", [("class", "sk-section-title")], text: "Messages")
        if data.messages.isEmpty { html.element("p", [("class", "mg-muted")], text: "No StoreKit messages.") }
        html.element("ul") {
            for message in data.messages {
                html.element("li", text: "\(message.reason.rawValue), queued \(dateTime(message.createdDate))"
                             + (message.displayedDate.map { ", displayed \(dateTime($0))" } ?? ", waiting"))
            }
        }
        ManageForm.open(html, "message", query: query, back: back, fields: [("customer", data.customer), ("app", data.app.bundleId)], label: "Queue a message")
        ManageForm.select(html, "reason", label: "Message", id: "mg-message", options: StoreMessage.Reason.allCases.map { ($0.rawValue, $0.rawValue) }, selected: "generic")
        ManageForm.submit(html, "Queue message", kind: .secondary)
        html.close("form")
    }

    static func family(_ html: HTMLWriter, _ data: CustomerData, query: ManageQuery, back: String) {
        html.element("h2", [("class", "sk-section-title")], text: "Family Sharing")
        if let group = data.family.group {
            html.element("p", text: "Family group \(group): \(data.family.members.joined(separator: ", "))")
            ManageForm.button(html, "family-leave", "Leave family group", query: query, back: back, fields: [("customer", data.customer)], kind: .destructive)
        } else {
            html.element("p", [("class", "mg-muted")], text: "Not in a family group.")
            ManageForm.open(html, "family-join", query: query, back: back, fields: [("customer", data.customer)], label: "Join a family group")
            ManageForm.field(html, "group", label: "Family group", id: "mg-family", required: true, maxLength: 64)
            ManageForm.submit(html, "Join family group", kind: .secondary)
            html.close("form")
        }
    }
}
