import Foundation
import Testing
@testable import SubscriptionBackend

/// The dashboard's figures on real signed data in a real SQLite file: ten customers whose
/// subscriptions renew, lapse, convert, get refunded, sit in a grace period or were upgraded long
/// ago, judged 45 days in.
/// Each expectation names the definition it checks (docs/backend.md, Dashboard; RevenueCat's
/// overview https://www.revenuecat.com/docs/dashboard-and-metrics/overview and charts).
@Suite struct DashboardOverviewTests {
    static let day = SignedDataKit.day
    /// 2030-03-17T17:46:40Z. April has 30 days, so one month on is +31 days and two are +61.
    static let t0 = SignedDataKit.start
    static let now = t0 + 45 * day

    /// Posts each transaction as the app would (`jwsRepresentation`), then the notifications.
    static func load(_ kit: SignedDataKit, into backend: SubscriptionBackend) async throws {
        let d = day, t0 = t0
        func post(_ user: String, _ t: [String: Any]) async throws {
            _ = try await backend.receiveTransaction(appUserId: user, signedTransaction: try kit.sign(t))
        }
        func priced(_ t: [String: Any], _ price: Int, _ currency: String) -> [String: Any] {
            var t = t
            t["price"] = price
            t["currency"] = currency
            return t
        }
        // A: monthly 4.99 USD, renewed once; active now.
        try await post("alice", kit.transaction(id: "A1", original: "A1", purchase: t0, expires: t0 + 31 * d))
        try await post("alice", kit.transaction(id: "A2", original: "A1", purchase: t0 + 31 * d, expires: t0 + 61 * d, reason: "RENEWAL"))
        // B: yearly 49.99 EUR.
        try await post("bruno", priced(kit.transaction(id: "B1", original: "B1", product: "plus.yearly", purchase: t0 + 5 * d,
                                                       expires: t0 + 370 * d), 49990, "EUR"))
        // C: weekly 1.99 USD, bought inside the window.
        try await post("chloe", priced(kit.transaction(id: "C1", original: "C1", product: "plus.weekly", purchase: t0 + 40 * d,
                                                       expires: t0 + 47 * d), 1990, "USD"))
        // D: a free trial running now.
        try await post("dmitri", kit.transaction(id: "D1", original: "D1", purchase: t0 + 42 * d, expires: t0 + 49 * d, trial: true))
        // E: a trial that converted, then the paid period was refunded.
        try await post("emma", kit.transaction(id: "E1", original: "E1", purchase: t0 + 20 * d, expires: t0 + 27 * d, trial: true))
        try await post("emma", kit.transaction(id: "E2", original: "E1", purchase: t0 + 27 * d, expires: t0 + 57 * d, reason: "RENEWAL"))
        // F: monthly, not renewed: expired inside the window.
        try await post("farid", kit.transaction(id: "F1", original: "F1", purchase: t0, expires: t0 + 31 * d))
        // G: a trial that ended unpaid.
        try await post("gwen", kit.transaction(id: "G1", original: "G1", purchase: t0 + 30 * d, expires: t0 + 37 * d, trial: true))
        // H: family-shared access: counts as a customer, never as money.
        var shared = kit.transaction(id: "H1", original: "H1", purchase: t0 + 43 * d, expires: t0 + 74 * d)
        shared["inAppOwnershipType"] = "FAMILY_SHARED"
        try await post("hana", shared)
        // I: monthly, its renewal failed; in a billing grace period until t0+50d.
        let i1 = kit.transaction(id: "I1", original: "I1", purchase: t0 + 13 * d, expires: t0 + 44 * d)
        try await post("ivan", i1)
        _ = try await backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try kit.notification(
            "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signed: t0 + 44 * d, transaction: i1,
            renewal: kit.renewal(original: "I1", signed: t0 + 44 * d, retry: true, grace: t0 + 50 * d, intent: 2)))
        // J: a yearly plan upgraded to a monthly one that lapsed long ago; the yearly transaction
        // still runs on paper (the backend never saw it marked isUpgraded): J is not active.
        var yearly = kit.transaction(id: "J1", original: "J1", product: "plus.yearly", purchase: t0 - 200 * d, expires: t0 + 165 * d)
        yearly["price"] = 39990
        try await post("jo", yearly)
        try await post("jo", kit.transaction(id: "J2", original: "J1", product: "plus.pro", purchase: t0 - 120 * d, expires: t0 - 89 * d,
                                             reason: "UPGRADE"))
        // The refund of E2 is the latest thing signed: the store's clock is t0+45d.
        var refunded = kit.transaction(id: "E2", original: "E1", purchase: t0 + 27 * d, expires: t0 + 57 * d, signed: now,
                                       reason: "RENEWAL")
        refunded["revocationDate"] = t0 + 44 * d
        refunded["revocationReason"] = 0
        _ = try await backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try kit.notification(
            "REFUND", signed: now, transaction: refunded, renewal: nil))
    }

    @Test func figuresFollowTheDefinitions() async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER]) { test in
            try await Self.load(kit, into: test.backend)
            let f = try await test.backend.overview(environment: nil)
            #expect(f.asOf == Self.now, "judged at the latest signed date (the store's clock ran ahead of the wall clock)")
            #expect(f.windowStart == Self.now - 28 * Self.day)
            // Active subscriptions: paid ones, grace periods included (A, B, C, I; E refunded, F expired).
            #expect(f.activeSubscriptions == 4)
            // Active trials: D only (G's trial ended; H is family-shared).
            #expect(f.activeTrials == 1)
            // MRR: monthly at its price, weekly × 52 ÷ 12, yearly ÷ 12, per currency.
            let usd = 4990.0 + 1990.0 * 52 / 12 + 4990.0
            #expect(f.mrr == [
                .init(currency: "EUR", milliunits: 49990.0 / 12, count: 1),
                .init(currency: "USD", milliunits: usd, count: 3),
            ])
            #expect(f.mrr.map(\.amount) == [4.17, 18.60])
            #expect(f.mrrPeriodsAssumedMonthly == 0)
            // Revenue of the last 28 days: A2 and C1 (E2 was refunded; B1 and I1 are older).
            #expect(f.revenueLast28Days == [.init(currency: "USD", milliunits: 4990 + 1990, count: 2)])
            // New customers: first purchase in the window (C, D, E, G, H) of ten in all.
            #expect(f.newCustomers == 5 && f.customers == 10)
            // Trial conversion: E converted, G did not (D's trial has not ended).
            #expect(f.trialConversion == .init(part: 1, of: 2) && f.trialConversion.rate == 0.5)
            // Churn: of A, B, F and I, active 28 days ago, F is gone.
            #expect(f.churn == .init(part: 1, of: 4))
            // Refund rate: of A2, C1 and E2, paid in the window, E2 was refunded.
            #expect(f.refundRate == .init(part: 1, of: 3))
            // The charts: 30 UTC days ending today, today's point equal to the figures.
            #expect(f.days.count == 30 && f.days.last?.date == OverviewRules.date(Self.now))
            #expect(f.days.last?.activeSubscriptions == 4 && f.days.last?.activeTrials == 1)
            let c1Day = try #require(f.days.first { $0.startMs == OverviewRules.dayStart(Self.t0 + 40 * Self.day) })
            #expect(c1Day.revenue == [.init(currency: "USD", milliunits: 1990, count: 1)])
            let revenue = f.days.flatMap(\.revenue).reduce(Int64(0)) { $0 + $1.milliunits }
            #expect(revenue == 4990 + 1990)
            #expect(f.days.reduce(0) { $0 + $1.newCustomers } == 5)

            // One environment: the same data is all Sandbox, so Production is empty.
            let production = try await test.backend.overview(environment: "Production")
            #expect(production.activeSubscriptions == 0 && production.mrr.isEmpty && production.newCustomers == 0)
            #expect(production.churn.rate == nil && production.environment == "Production")
            #expect(try await test.backend.overview(environment: "Sandbox").mrr == f.mrr)
        }
    }

    @Test func planPeriodsNormalizeToAMonth() {
        let start = Self.t0
        #expect(OverviewPlanPeriod.classify(purchaseMs: start, expiresMs: start + 7 * Self.day) == .week)
        #expect(OverviewPlanPeriod.classify(purchaseMs: start, expiresMs: start + 31 * Self.day) == .month)
        #expect(OverviewPlanPeriod.classify(purchaseMs: start, expiresMs: start + 92 * Self.day) == .threeMonths)
        #expect(OverviewPlanPeriod.classify(purchaseMs: start, expiresMs: start + 365 * Self.day) == .year)
        // Sandbox's accelerated month (5 minutes) is no calendar period: MRR counts it as monthly.
        #expect(OverviewPlanPeriod.classify(purchaseMs: start, expiresMs: start + 300_000) == nil)
        #expect(OverviewPlanPeriod.year.monthlyFactor * 12 == 1 && OverviewPlanPeriod.week.monthlyFactor == 52.0 / 12)
        #expect(OverviewRules.date(0) == "1970-01-01" && OverviewRules.date(Self.t0) == "2030-03-17")
    }
}
