import StoreShared
import Foundation
import Hummingbird
import StoreEngine
import StoreModel
import StoreViews

/// What a dashboard form asks for, carried out through the same engine methods the admin API
/// calls, then `303 See Other` back to the page it came from with the outcome as a notice.
/// Destructive actions first answer with a confirmation page that posts the same fields again
/// with `confirmed=yes`. A refusal by the store is a notice on the page, never a failed request;
/// a form that is not one of ours (unknown action, missing field) is a 400.
struct ManageActions {
    let store: AppStore
    let jobs: AdvanceJobs
    let form: [String: String]
    let scheme: PageRenderer.ColorScheme

    /// Actions that ask "are you sure?" first, with what they will do.
    static let destructive: [String: String] = [
        "reset-world": "Reset this world: every customer, purchase, notification and switch of it is removed. Its clock keeps its time.",
        "delete-world": "Delete this world and everything in it.",
        "refund": "Refund this transaction: it is revoked, its subscription ends, the app gets a REFUND notification.",
        "revoke": "Revoke this transaction for an issue in the app (revocation reason 1): access ends, the app gets a REFUND notification.",
        "expire": "Expire this subscription now.",
        "delete-transaction": "Delete this transaction as if it was never bought, with no notification (deleteTransaction). A subscription's transaction deletes the whole subscription.",
        "clear": "Delete every transaction of this customer in this app (clearTransactions).",
        "family-leave": "Take this customer out of their family group: shared access ends both ways.",
        "revoke-key": "Revoke this Server API key: tokens signed with it are refused from now on.",
    ]

    var query: ManageQuery {
        ManageQuery(query: FormEncoding.query([("world", form["world"]), ("scheme", scheme == .automatic ? nil : scheme.rawValue)]))
    }

    func value(_ name: String) -> String? {
        guard let value = form[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    func required(_ name: String) throws -> String {
        guard let value = value(name) else { throw RequestError.malformed("The form has no \(name).") }
        return value
    }

    var world: String { value("world") ?? AppStore.defaultWorld }

    func perform() async throws -> Response {
        let action = try required("action")
        let back = ManageQuery.safeBack(form["back"]) ?? query.url("world")
        if let warning = Self.destructive[action], form["confirmed"] != "yes" {
            return confirmation(action, warning, back: back)
        }
        do {
            if let response = try await special(action) { return response }
            let notice = try await run(action)
            let target = action == "delete-world" ? query.url("", world: AppStore.defaultWorld) : back
            return HTMLResponse.seeOther(ManageQuery.back(target, notice: .init(notice)), result: "done")
        } catch let error as StoreError {
            return refused(back, error.message)
        } catch let error as OfferError {
            return refused(back, error.message)
        } catch let error as ServerAPIError {
            return refused(back, error.message)
        }
    }

    func refused(_ back: String, _ message: String) -> Response {
        HTMLResponse.seeOther(ManageQuery.back(back, notice: .init(message, isError: true)), result: "failed")
    }

    /// Actions whose answer is not a redirect back: a clock advance (its progress page), a new
    /// world (its own page), a new API key (its `.p8`, shown once).
    func special(_ action: String) async throws -> Response? {
        switch action {
        case "advance":
            let text = try required("duration")
            let jump: TimeJump
            do { jump = try DurationParser.parse(text) } catch { throw StoreError.malformedRequest(error.description) }
            _ = try await store.worldInfo(world)
            let id = jobs.start(store: store, world: world, jump: jump, duration: jump.description)
            return HTMLResponse.seeOther(query.url("progress", [("job", id)]))
        case "create-world":
            let id = try required("id")
            let rate = try value("rate").map(Self.rate)
            let info = try await store.createWorld(id, rate: rate)
            return HTMLResponse.seeOther(query.url("world", world: info.id, notice: .init("World \(info.id) created.")), result: "done")
        case "create-key":
            let app = try store.app(try required("app"))
            let key = try await store.world(world).createAPIKey(bundleId: app.bundleId)
            return ManagePages(store: store, jobs: jobs, signOut: false).newKey(query, key)
        default:
            return nil
        }
    }

    /// Carries out the action; returns the notice shown afterwards.
    func run(_ action: String) async throws -> String {
        switch action {
        case "reset-world":
            _ = try await store.resetWorld(world)
            return "World \(world) was reset."
        case "delete-world":
            try await store.deleteWorld(world)
            return "World \(world) was deleted."
        case "pause":
            _ = try await store.world(world).pauseClock()
            return "The clock is paused. Advances still move it."
        case "resume":
            let info = try await store.world(world).resumeClock()
            return "The clock runs again at \(info.rate)."
        case "rate":
            let rate = try Self.rate(value("multiplier") ?? required("rate"))
            let info = try await store.setTimeRate(world, rate: rate)
            return "The time rate is now \(info.rate)."
        case "save-customer":
            let record = try await store.world(world).saveCustomer(try required("customer"), storefront: value("storefront"), locale: value("locale"))
            return "Saved \(record.name): storefront \(record.storefront), locale \(record.locale)."
        case "refund", "revoke":
            let reason: RevocationReason = action == "revoke" ? .dueToIssue : (value("reason") == "1" ? .dueToIssue : .otherReason)
            let signed = try await store.world(world).refund(transactionId: try required("transactionId"), reason: reason)
            return "Transaction \(signed.payload.transactionId) was \(action == "revoke" ? "revoked" : "refunded")."
        case "delete-transaction":
            let id = try required("transactionId")
            try await store.world(world).deleteTransaction(transactionId: id)
            return "Transaction \(id) was deleted."
        case "expire":
            _ = try await store.world(world).expireSubscription(transactionId: try required("transactionId"))
            return "The subscription expired."
        case "renew":
            let outcome = try await store.world(world).forceRenewal(transactionId: try required("transactionId"))
            return outcome.transaction.map { "Renewed: transaction \($0.payload.transactionId)." } ?? "The renewal was attempted."
        case "auto-renew":
            let on = try required("enabled") == "on"
            _ = try await store.world(world).setAutoRenew(transactionId: try required("transactionId"), enabled: on)
            return on ? "Auto-renew is on." : "Auto-renew is off: the subscription ends at its expiration date."
        case "resolve":
            _ = try await store.world(world).resolveIssue(try required("id"))
            return "The issue was resolved."
        case "approve":
            let outcome = try await store.world(world).answerAskToBuy(try required("pendingId"), approve: true)
            return outcome?.transaction.map { "Approved: transaction \($0.payload.transactionId)." } ?? "The request was approved."
        case "decline":
            _ = try await store.world(world).answerAskToBuy(try required("pendingId"), approve: false)
            return "The request was declined."
        case "price-increase":
            let mode = PriceIncreaseMode(rawValue: value("mode") ?? "consent") ?? .consent
            let signed = try await store.world(world).requestPriceIncrease(transactionId: try required("transactionId"), newPrice: try required("newPrice"),
                                                              mode: mode)
            return "A price increase to \(Self.milliunits(signed.payload.renewalPrice)) \(signed.payload.currency ?? "") was requested."
        case "price-consent":
            _ = try await store.world(world).consentToPriceIncrease(transactionId: try required("transactionId"))
            return "The customer consented to the price increase."
        case "price-decline":
            _ = try await store.world(world).declinePriceIncrease(transactionId: try required("transactionId"))
            return "The customer declined the price increase: auto-renew is off."
        case "refund-request":
            let request = try await store.world(world).requestRefund(transactionId: try required("transactionId"), reason: value("reason") ?? "OTHER")
            return "Refund request \(request.id) is pending."
        case "refund-decide":
            let grant: Bool? = switch value("decision") { case "grant": true; case "decline": false; default: nil }
            let decided = try await store.world(world).decideRefund(requestId: try required("requestId"), grant: grant)
            return "Refund request \(decided.id) was \(decided.state.rawValue)."
        case "reverse-refund":
            _ = try await store.world(world).reverseRefund(transactionId: try required("transactionId"))
            return "The refund was reversed."
        case "clear":
            let app = try required("app"), customer = try required("customer")
            try await store.world(world).clearTransactions(bundleId: app, customer: customer)
            return "Every transaction of \(customer) in \(app) was deleted."
        case "extend":
            guard let days = Int64(try required("days")) else { throw StoreError.malformedRequest("the number of days must be a whole number") }
            let answer = try await store.world(world).extendRenewalDate(
                originalTransactionId: try required("originalTransactionId"),
                request: ExtendRenewalDateRequest(extendByDays: days, extendReasonCode: Int64(value("reasonCode") ?? "0") ?? 0,
                                                  requestIdentifier: UUID().uuidString.lowercased()),
                bundleId: try required("app"))
            return answer.success ? "The renewal date moved to \(ManagePages.dateTime(answer.effectiveDate))." : "The renewal date was not extended."
        case "app-version":
            _ = try await store.world(world).updateAppTransaction(bundleId: try required("app"), customer: try required("customer"),
                                                     change: AppTransactionChange(originalApplicationVersion: try required("originalApplicationVersion")))
            return "The app transaction's originalApplicationVersion is now \(try required("originalApplicationVersion"))."
        case "message":
            let reason = StoreMessage.Reason(rawValue: value("reason") ?? "generic") ?? .generic
            _ = try await store.world(world).queueMessage(reason, bundleId: try required("app"), customer: try required("customer"))
            return "A \(reason.rawValue) message is waiting for the customer."
        case "family-join":
            let membership = try await store.world(world).joinFamily(customer: try required("customer"), group: try required("group"))
            return "\(membership.customer) is in family group \(membership.group ?? "")."
        case "family-leave":
            _ = try await store.world(world).leaveFamily(customer: try required("customer"))
            return "The customer left their family group."
        case "switches":
            func flag(_ name: String) -> Bool? { switch value(name) { case "on": true; case "off": false; default: nil } }
            let limit = try value("renewalLimit").map { text -> Int in
                guard let number = Int(text), number >= 0 else { throw StoreError.malformedRequest("the renewal limit is 0 (no limit) or more") }
                return number
            }
            _ = try await store.world(world).setSwitches(SessionSwitches(
                askToBuy: flag("askToBuy"), failRenewals: flag("failRenewals"), billingGracePeriod: flag("billingGracePeriod"),
                interruptedPurchases: flag("interruptedPurchases"), failTransactions: flag("failTransactions"), renewalLimit: limit))
            return "The switches were saved."
        case "simulated-error":
            _ = try await store.world(world).setSimulatedError(api: try required("api"), error: value("error"))
            return value("error").map { "\(form["api"] ?? "") now fails with \($0)." } ?? "\(form["api"] ?? "") no longer fails."
        case "notification-url":
            let urls = try await store.world(world).setNotificationURL(value("url"), bundleId: try required("app"), environment: value("environment"))
            return "Notification URLs of \(urls.bundleId): Production \(urls.productionURL ?? "none"), Sandbox \(urls.sandboxURL ?? "none")."
        case "send-now":
            guard let seq = Int64(try required("seq")) else { throw RequestError.malformed("The form's notification number is not a number.") }
            let queued = try await store.world(world).sendNotificationNow(seq: seq)
            return queued ? "The notification is due now; it is sent on the next delivery pass." : "That notification is not waiting for a retry."
        case "test-notification":
            let token = try await store.world(world).requestTestNotification(bundleId: try required("app"))
            return "A TEST notification was queued (testNotificationToken \(token))."
        case "revoke-key":
            let key = try required("keyId")
            try await store.world(world).revokeAPIKey(key)
            return "Key \(key) was revoked."
        default:
            throw RequestError.malformed("The Transaction Manager has no action \"\(action)\".")
        }
    }

    /// "Are you sure?": the same fields again with `confirmed=yes`, and the way back.
    func confirmation(_ action: String, _ warning: String, back: String) -> Response {
        ManageDocument.page("Confirm", query, section: nil) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Are you sure?")
            html.element("p", [("id", "mg-confirm-text")], text: warning)
            let shown = ["transactionId": "Transaction", "customer": "Customer", "app": "App", "keyId": "Key", "world": "World"]
            ManagePages.fields(html, shown.keys.sorted().compactMap { key in form[key].map { (shown[key]!, $0) } })
            html.open("form", [("method", "post"), ("action", "/manage/actions"), ("class", "mg-form"), ("data-sk-native", "1"),
                               ("aria-describedby", "mg-confirm-text")])
            for (name, value) in form.sorted(by: { $0.key < $1.key }) where name != "confirmed" { ManageForm.hidden(html, name, value) }
            ManageForm.hidden(html, "confirmed", "yes")
            ManageForm.submit(html, "Yes, \(Self.verb(action))", kind: .destructive)
            html.element("a", [("href", back), ("class", "sk-button sk-button-cancel mg-button")], text: "Cancel")
            html.close("form")
        }
    }

    static func verb(_ action: String) -> String {
        switch action {
        case "reset-world": "reset"
        case "delete-world": "delete"
        case "refund": "refund"
        case "revoke": "revoke"
        case "expire": "expire"
        case "delete-transaction": "delete the transaction"
        case "clear": "clear transactions"
        case "family-leave": "leave the family"
        case "revoke-key": "revoke the key"
        default: action
        }
    }

    static func rate(_ text: String) throws -> TimeRate {
        guard let rate = TimeRate(text) else {
            throw StoreError.malformedRequest("\"\(text)\" is not a time rate: use an SKTestSession.TimeRate name, its raw value or a multiplier such as 720x")
        }
        return rate
    }

    static func milliunits(_ value: Int64?) -> String {
        guard let value else { return "—" }
        return String(format: "%.2f", Double(value) / 1000)
    }
}
