import Foundation
import NIOHTTP1
import StoreEngine
import StoreModel
@testable import StoreServer
import StoreTestSupport
import Testing

/// Every Transaction Manager action of `/manage` (issue 13 §3, §4, §5, §1) is a POST form on the
/// page beside what it acts on, and posting that form as the page wrote it (its hidden fields, plus
/// what a person types) does what the action says, through the engine. The forms are taken from
/// the rendered HTML, not written by the test, so a form that lost a field or moved away fails here.
@Suite(.serialized, .removesTemporaryFolders) struct ManageActionFormsTests {
    let routes = ManageRoutesTests()
    static let bundle = ManageRoutesTests.bundle

    /// The forms of a page: each one's hidden fields, unescaped, in page order.
    static func forms(_ html: String) -> [[String: String]] {
        html.components(separatedBy: "<form ").dropFirst().map { chunk in
            let body = chunk.components(separatedBy: "</form>")[0]
            var fields: [String: String] = [:]
            for input in body.components(separatedBy: "<input type=\"hidden\" name=\"").dropFirst() {
                let name = String(input.prefix { $0 != "\"" })
                guard let value = input.range(of: "value=\"") else { continue }
                fields[name] = unescape(String(input[value.upperBound...].prefix { $0 != "\"" }))
            }
            return fields
        }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The form on `path` for `action` (whose hidden fields include `matching`), posted with `typed`
    /// and, for destructive actions, the confirmation. Expects the 303 back with a notice, not an error.
    @discardableResult
    func post(_ server: LiveServer, _ path: String, _ action: String, matching: [String: String] = [:], typed: [(String, String)] = [],
              sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let page = try await routes.send(server, .GET, path)
        #expect(page.status == 200, sourceLocation: sourceLocation)
        let form = try #require(Self.forms(page.body).first { form in
            form["action"] == action && matching.allSatisfy { form[$0.key] == $0.value }
        }, "no \(action) form \(matching) on \(path)", sourceLocation: sourceLocation)
        var fields = form.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + typed
        if ManageActions.destructive[action] != nil {
            let ask = try await routes.send(server, .POST, "/manage/actions", form: fields)
            #expect(ask.status == 200 && ask.body.contains("Are you sure?"), "\(action) asks first", sourceLocation: sourceLocation)
            fields.append(("confirmed", "yes"))
        }
        let answer = try await routes.send(server, .POST, "/manage/actions", form: fields)
        #expect(answer.status == 303, "\(action): \(answer.status) \(answer.body.prefix(300))", sourceLocation: sourceLocation)
        let location = answer.location ?? ""
        #expect(location.contains("notice=") && !location.contains("error="), "\(action) answered \(location)", sourceLocation: sourceLocation)
        return location
    }

    @Test func everyActionWorksFromItsFormOnThePage() async throws {
        try await routes.withServer { server in
            let store = server.store, world = "forms", bundle = Self.bundle
            _ = try await store.createWorld(world, rate: .multiplier(0))
            func buy(_ product: String, _ customer: String) async throws -> PurchaseOutcome {
                try await store.world(world).purchase(PurchaseRequest(bundleId: bundle, productId: product, customer: customer))
            }
            func status(_ customer: String) async throws -> SubscriptionStatusItem {
                try #require(try await store.world(world).subscriptionStatuses(bundleId: bundle, customer: customer).first)
            }
            func transaction(_ id: String, of customer: String = "cora") async throws -> TransactionPayload {
                try #require(try await store.world(world).customerHistory(bundleId: bundle, customer: customer, limit: 100).transactions
                    .first { $0.payload.transactionId == id }?.payload)
            }
            let page = "/manage/customer?world=\(world)&id=cora&app=\(bundle)"
            let sub = try #require(try await buy("p.gold", "cora").transaction?.payload.transactionId)
            let guide = try #require(try await buy("p.guide", "cora").transaction?.payload.transactionId)
            let seeds = try #require(try await buy("p.seeds", "cora").transaction?.payload.transactionId)

            // Subscription: auto-renew off and on, force renewal, price increase and consent, extension.
            try await post(server, page, "auto-renew", matching: ["transactionId": sub])
            #expect(try await status("cora").renewalInfo.payload.autoRenewStatus.rawValue == 0)
            try await post(server, page, "auto-renew", matching: ["transactionId": sub, "enabled": "on"])
            #expect(try await status("cora").renewalInfo.payload.autoRenewStatus.rawValue == 1)
            try await post(server, page, "renew")
            let renewed = try await status("cora").transaction.payload
            #expect(renewed.transactionId != sub && renewed.originalTransactionId == sub, "force renewal made a new period")
            try await post(server, page, "price-increase", typed: [("newPrice", "12.99"), ("mode", "consent")])
            #expect(try await status("cora").renewalInfo.payload.priceIncreaseStatus?.rawValue == 0)
            try await post(server, page, "price-consent")
            #expect(try await status("cora").renewalInfo.payload.priceIncreaseStatus?.rawValue == 1)
            let before = try #require(try await status("cora").transaction.payload.expiresDate)
            try await post(server, page, "extend", typed: [("days", "5"), ("reasonCode", "1")])
            #expect(try await status("cora").transaction.payload.expiresDate == before + 5 * 86_400_000, "Extend a Subscription Renewal Date: 5 days")

            // Transactions: the customer's refund request, its decision, the reversal; a revocation.
            try await post(server, page, "refund-request", matching: ["transactionId": guide])
            try await post(server, page, "refund-decide", matching: ["decision": "grant"])
            #expect(try await transaction(guide).revocationDate != nil, "a granted refund request refunds")
            try await post(server, page, "reverse-refund", matching: ["transactionId": guide])
            #expect(try await transaction(guide).revocationDate == nil)
            try await post(server, page, "revoke", matching: ["transactionId": seeds])
            #expect(try await transaction(seeds).revocationReason == .dueToIssue, "revoke is revocation reason 1")

            // The app transaction's version, a message, Family Sharing.
            try await post(server, page, "app-version", typed: [("originalApplicationVersion", "1.2")])
            #expect(try await store.world(world).existingAppTransaction(bundleId: bundle, customer: "cora")?.payload.originalApplicationVersion == "1.2")
            try await post(server, page, "message", typed: [("reason", "billingIssue")])
            #expect(try await store.world(world).allMessages(bundleId: bundle, customer: "cora").map(\.reason) == [.billingIssue])
            try await post(server, page, "family-join", typed: [("group", "fam")])
            #expect(try await store.world(world).family(of: "cora").group == "fam")
            try await post(server, page, "family-leave")
            #expect(try await store.world(world).family(of: "cora").group == nil)
            try await post(server, page, "expire")
            #expect(try await status("cora").status == .expired)

            // Switches: Ask to Buy (approve, decline), interrupted purchases (resolve), a simulated error.
            let settings = "/manage/settings?world=\(world)"
            try await post(server, settings, "switches", typed: [("askToBuy", "on")])
            #expect(try await buy("p.seeds", "cora").status == .pending)
            try await post(server, page, "approve")
            #expect(try await buy("p.seeds", "cora").status == .pending)
            try await post(server, page, "decline")
            #expect(try await store.world(world).pendingPurchases().isEmpty)
            try await post(server, settings, "switches", typed: [("askToBuy", "off"), ("interruptedPurchases", "on")])
            #expect(try await buy("p.seeds", "cora").status == .interrupted)
            let count = try await store.world(world).customerHistory(bundleId: bundle, customer: "cora").total
            try await post(server, page, "resolve", matching: ["id": try #require(try await store.world(world).pendingPurchases().first?.id)])
            #expect(try await store.world(world).customerHistory(bundleId: bundle, customer: "cora").total == count + 1, "the resolved purchase completes")
            try await post(server, settings, "switches", typed: [("interruptedPurchases", "off"), ("failRenewals", "on")])
            try await post(server, settings, "simulated-error", matching: ["api": "Purchase"], typed: [("error", "networkError")])
            #expect(try await store.worldInfo(world).settings.simulatedErrors["Purchase"] == "networkError")
            try await post(server, settings, "simulated-error", matching: ["api": "Purchase"])
            #expect(try await store.worldInfo(world).settings.simulatedErrors["Purchase"] == nil)

            // Billing retry: the renewal fails, "Resolve billing issue" sits beside the subscription.
            let dora = try #require(try await buy("p.gold", "dora").transaction?.payload.transactionId)
            _ = try await store.advanceTime(world, by: try DurationParser.parse("P10D"))
            #expect(try await status("dora").status == .billingRetry)
            try await post(server, "/manage/customer?world=\(world)&id=dora&app=\(bundle)", "resolve", matching: ["id": dora])
            #expect(try await status("dora").status == .active)

            // Notifications: a URL per environment, a TEST notification.
            let notifications = "/manage/notifications?world=\(world)&app=\(bundle)"
            try await post(server, notifications, "notification-url", matching: ["environment": "Sandbox"], typed: [("url", "http://127.0.0.1:9/hook")])
            let urls = try await store.world(world).notificationURLs(bundleId: bundle)
            #expect(urls.sandboxURL == "http://127.0.0.1:9/hook")
            try await post(server, notifications, "test-notification")
            #expect(try await store.world(world).notificationLog(type: "TEST").count == 1)

            // Clear transactions, then reset and delete the world.
            try await post(server, page, "clear")
            #expect(try await store.world(world).customerHistory(bundleId: bundle, customer: "cora").total == 0)
            try await post(server, "/manage?world=\(world)", "reset-world", matching: ["world": world])
            #expect(try await store.world(world).customerHistory(bundleId: bundle, customer: "dora").total == 0)
            try await post(server, "/manage?world=\(world)", "delete-world", matching: ["world": world])
            #expect(await store.listWorlds().allSatisfy { $0.id != world })
        }
    }
}
