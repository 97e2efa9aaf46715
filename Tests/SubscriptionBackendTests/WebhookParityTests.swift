import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import SQLKit
import StoreShared
import StoreTestSupport
import Synchronization
import Testing
@testable import SubscriptionBackend

/// The webhook features teams use at RevenueCat (its "event types and fields" and webhook setup
/// pages): SUBSCRIPTION_EXTENDED, TEST, a price-increase event, proceeds after Apple's commission,
/// the country and offer code, per-webhook filters and an Authorization header.
@Suite struct WebhookParityTests {
    static let day = SignedDataKit.day, t0 = SignedDataKit.start

    /// A monthly period of the subscription "s", bought `startDay` days after t0.
    static func period(_ id: String, startDay: Int64, days: Int64 = 30, price: Int64 = 4990, trial: Bool = false) -> TransactionRow {
        TransactionRow(environment: "Sandbox", transactionId: id, originalTransactionId: "s", bundleId: "b", productId: "m",
                       groupId: "g", type: EventRules.autoRenewable, purchaseMs: t0 + startDay * day, originalPurchaseMs: t0,
                       expiresMs: t0 + (startDay + days) * day, revocationMs: nil, revocationType: nil, price: trial ? 0 : price,
                       currency: "USD", ownership: "PURCHASED", offerType: trial ? 1 : nil, offerDiscountType: trial ? "FREE_TRIAL" : nil,
                       reason: "RENEWAL", appAccountToken: nil, isUpgraded: false, signedMs: t0, jws: "")
    }

    @Test func theCommissionDropsAfterAYearOfPaidServiceAndALongLapseStartsItOver() {
        // Apple: 15 % "after one year of paid service"; free trials excluded; a lapse of up to 60 days resumes.
        let monthly = (0..<14).map { Self.period("p\($0)", startDay: Int64($0) * 30) }
        #expect(ProceedsRules.commission(monthly[12], chain: monthly, smallBusiness: false) == 0.30)  // 360 days before it
        #expect(ProceedsRules.commission(monthly[13], chain: monthly, smallBusiness: false) == 0.15)  // 390 days
        #expect(ProceedsRules.commission(monthly[0], chain: monthly, smallBusiness: true) == 0.15)
        let withTrial = [Self.period("t", startDay: 0, days: 30, trial: true)] + (1..<14).map { Self.period("p\($0)", startDay: Int64($0) * 30) }
        #expect(ProceedsRules.commission(withTrial[13], chain: withTrial, smallBusiness: false) == 0.30, "the free month is not paid service")
        // Twelve paid months, then a lapse: 59 days resume the count, 61 days start it over.
        let year = (0..<12).map { Self.period("p\($0)", startDay: Int64($0) * 30) }
        let resumed = Self.period("back", startDay: 360 + 59), restarted = Self.period("back", startDay: 360 + 61)
        #expect(ProceedsRules.paidServiceMs(before: resumed, in: year + [resumed]) == 360 * Self.day)
        #expect(ProceedsRules.paidServiceMs(before: restarted, in: year + [restarted]) == 0)
        // An upgrade mid-period counts the overlap once.
        let upgrade = [Self.period("a", startDay: 0, days: 365), Self.period("b", startDay: 100, days: 365)]
        #expect(ProceedsRules.paidServiceMs(before: Self.period("c", startDay: 465), in: upgrade) == 465 * Self.day)
        #expect(ProceedsRules.proceedsMilliunits(price: 4990, commission: 0.30) == 3493)
    }

    @Test func filtersChooseTheWebhooksAndTestEventsReachThemAll() {
        let renewalsOnly = WebhookTarget(url: "http://a", secret: "", eventTypes: ["RENEWAL"])
        let production = WebhookTarget(url: "http://b", secret: "", environments: ["Production"])
        let otherApp = WebhookTarget(url: "http://c", secret: "", apps: ["com.example.other"])
        #expect(renewalsOnly.accepts(type: "RENEWAL", environment: "Sandbox", bundleId: "x"))
        #expect(!renewalsOnly.accepts(type: "INITIAL_PURCHASE", environment: "Sandbox", bundleId: "x"))
        #expect(!production.accepts(type: "RENEWAL", environment: "Sandbox", bundleId: "x"))
        #expect(!otherApp.accepts(type: "RENEWAL", environment: "Sandbox", bundleId: "x"))
        #expect([renewalsOnly, production, otherApp].allSatisfy { $0.accepts(type: "TEST", environment: "Sandbox", bundleId: "x") })
        // A filter naming what does not exist is refused with its JSON path.
        let app = AppConfiguration(bundleId: "x", environments: ["Sandbox"])
        for (hook, path) in [(WebhookTarget(url: "http://a", secret: "", eventTypes: ["RENEWED"]), "$.webhooks[0].eventTypes"),
                             (WebhookTarget(url: "http://a", secret: "", apps: ["y"]), "$.webhooks[0].apps"),
                             (WebhookTarget(url: "http://a", secret: "", environments: ["Staging"]), "$.webhooks[0].environments")] {
            #expect(throws: BackendConfigurationError.self) { try BackendConfiguration(apps: [app], webhooks: [hook]).validate() }
            do { try BackendConfiguration(apps: [app], webhooks: [hook]).validate() } catch {
                #expect("\(error)".contains(path), "\(error)")
            }
        }
    }

    @Test(arguments: BackendTestEngine.all) func extensionsPriceIncreasesProceedsAndFiltersReachTheRightReceivers(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let received = Mutex<[(path: String, authorization: String?, body: String)]>([])
        let router = Router()
        router.post("/:hook") { request, context in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append((context.parameters.get("hook") ?? "", request.headers[.authorization], String(buffer: body))) }
            return Response(status: .ok)
        }
        let receiver = try await serveOnLoopback(router)
        let base = "http://127.0.0.1:\(receiver.port)"
        let hooks = [
            WebhookTarget(url: "\(base)/all", secret: "s1", authorization: "Bearer receiver-token"),
            WebhookTarget(url: "\(base)/extended", secret: "s2", eventTypes: ["SUBSCRIPTION_EXTENDED"]),
            WebhookTarget(url: "\(base)/production", secret: "s3", environments: ["Production"]),
        ]
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], webhooks: hooks, engine: engine) { test in
                var tx = kit.transaction(id: "501", original: "501", purchase: Self.t0, expires: Self.t0 + 30 * Self.day)
                tx["offerType"] = 3
                tx["offerIdentifier"] = "SPRING"
                _ = try await test.backend.receiveTransaction(appUserId: "ann", signedTransaction: try kit.sign(tx))
                // Apple's RENEWAL_EXTENDED: the same transaction signed again, ending 10 days later.
                var extended = tx
                extended["expiresDate"] = Self.t0 + 40 * Self.day
                extended["signedDate"] = Self.t0 + 5 * Self.day
                let notice = try kit.notification("RENEWAL_EXTENDED", signed: Self.t0 + 5 * Self.day, transaction: extended, renewal: nil)
                #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: notice) == .applied)
                let again = try kit.notification("RENEWAL_EXTENDED", signed: Self.t0 + 5 * Self.day, transaction: extended, renewal: nil)
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: again)
                let increase = try kit.notification("PRICE_INCREASE", subtype: "PENDING", signed: Self.t0 + 6 * Self.day, transaction: extended,
                                                    renewal: kit.renewal(original: "501", signed: Self.t0 + 6 * Self.day))
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: increase)
                let test1 = try await test.backend.sendTestEvent(bundleId: nil)
                #expect(test1.type == "TEST" && test1.bundleId == kit.bundleId)

                let events = try await test.backend.events(appUserId: "ann", limit: 100)
                #expect(events.map(\.type) == ["INITIAL_PURCHASE", "SUBSCRIPTION_EXTENDED", "PRICE_INCREASE"])
                let first = try #require(events.first)
                #expect(first.store == "APP_STORE" && first.storefront == "USA" && first.countryCode == "US" && first.offerCode == "SPRING")
                #expect(first.commissionPercentage == 0.3 && first.proceedsMilliunits == 3493 && first.proceeds == 3.493)
                #expect(events[2].priceIncreaseStatus == "PENDING")

                let dispatcher = WebhookDispatcher(backend: test.backend, http: http)
                try await dispatcher.round()
                let got = received.withLock { $0 }
                #expect(got.filter { $0.path == "all" }.count == 4, "every event, the TEST one included")
                #expect(got.filter { $0.path == "all" }.allSatisfy { $0.authorization == "Bearer receiver-token" })
                #expect(got.filter { $0.path == "extended" }.map { try! JSONDecoder().decode(WebhookPayload.self, from: Data($0.body.utf8)).type }.sorted()
                        == ["SUBSCRIPTION_EXTENDED", "TEST"])
                #expect(got.filter { $0.path == "extended" }.allSatisfy { $0.authorization == nil })
                #expect(got.filter { $0.path == "production" }.map(\.body).allSatisfy { $0.contains("\"TEST\"") }, "Sandbox events stay away from a Production-only webhook")
                #expect(got.filter { $0.path == "production" }.count == 1)
            }
        } catch {
            Issue.record(error)
        }
        try await http.shutdown()
        await receiver.stop()
    }
}
