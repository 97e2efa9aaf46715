import Foundation
import StoreEngine
import StoreTestSupport
import StoreModel
import StoreSigning
import StoreStorage
import Testing

private let day: Int64 = 86_400_000

/// Adds calendar months in UTC, as the store does.
private func plusMonths(_ ms: Int64, _ months: Int) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(byAdding: .month, value: months, to: Date(milliseconds: ms))!.milliseconds
}

private func plusYears(_ ms: Int64, _ years: Int) -> Int64 { plusMonths(ms, 12 * years) }

@Suite(.removesTemporaryFolders) struct LifecycleTests {
    func events(_ store: AppStore, world: String = AppStore.defaultWorld) async throws -> [String] {
        try await store.world(world).events().map { [$0.type, $0.subtype].compactMap { $0 }.joined(separator: "/") }
    }

    func all(_ store: AppStore, _ customer: String, world: String = AppStore.defaultWorld) async throws -> [TransactionPayload] {
        try await store.world(world).transactions(bundleId: testBundle, customer: customer, scope: .all).map(\.payload)
    }

    func status(_ store: AppStore, _ customer: String, world: String = AppStore.defaultWorld) async throws -> SubscriptionStatusItem {
        try #require(try await store.world(world).subscriptionStatuses(bundleId: testBundle, customer: customer).first)
    }

    @Test func freeTrialToPaidToUpgradeThroughBillingRetryGraceRecoveryCancelAndExpiry() async throws {
        let store = try await makeStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()

        // Free trial.
        let trial = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "pat")).transaction?.payload)
        #expect(trial.offerDiscountType == .freeTrial && trial.price == 0 && trial.expiresDate == t0 + 7 * day)

        // The trial converts to a paid month at its end.
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 7 * day + 1000)
        var list = try await all(store, "pat")
        #expect(list.count == 2)
        let paid = list[1]
        #expect(paid.transactionReason == .renewal)
        #expect(paid.originalTransactionId == trial.transactionId && paid.transactionId != trial.transactionId)
        #expect(paid.purchaseDate == t0 + 7 * day)
        #expect(paid.expiresDate == plusMonths(t0 + 7 * day, 1))
        #expect(paid.price == 4990 && paid.offerType == nil)
        #expect(paid.webOrderLineItemId != trial.webOrderLineItemId)

        // Upgrade to the yearly plan (level 1): immediate, the old period is marked upgraded.
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 3 * day)
        let upgradeAt = try await store.world(AppStore.defaultWorld).nowMs()
        let upgrade = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "pat"))
        let yearly = try #require(upgrade.transaction?.payload)
        #expect(yearly.productId == "test.yearly" && yearly.originalTransactionId == trial.transactionId)
        #expect(yearly.transactionReason == .purchase && yearly.purchaseDate == upgradeAt)
        #expect(yearly.expiresDate == plusYears(upgradeAt, 1) && yearly.price == 39990)
        list = try await all(store, "pat")
        #expect(list.first { $0.transactionId == paid.transactionId }?.isUpgraded == true)
        #expect(upgrade.renewalInfo?.payload.autoRenewProductId == "test.yearly")

        // Billing fails at renewal: grace period (16 days for a yearly plan), then billing retry.
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(failRenewals: true, billingGracePeriod: true))
        let renewalDue = try #require(yearly.expiresDate)
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: renewalDue - upgradeAt + 1000)
        var current = try await status(store, "pat")
        #expect(current.status == .billingGracePeriod)
        #expect(current.renewalInfo.payload.isInBillingRetryPeriod == true)
        #expect(current.renewalInfo.payload.gracePeriodExpiresDate == renewalDue + 16 * day)
        #expect(current.renewalInfo.payload.expirationIntent == nil)
        let graceEntitlements = try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "pat", scope: .entitlements)
        #expect(graceEntitlements.map(\.payload.transactionId) == [yearly.transactionId])

        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 16 * day)
        current = try await status(store, "pat")
        #expect(current.status == .billingRetry)
        #expect(try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "pat", scope: .entitlements).isEmpty)

        // Billing works again: the next retry attempt recovers; after grace, a new period starts then.
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(failRenewals: false))
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 1 * day + 1000)
        list = try await all(store, "pat")
        let recovered = try #require(list.last)
        #expect(recovered.transactionReason == .renewal && recovered.productId == "test.yearly")
        #expect(recovered.purchaseDate > renewalDue + 16 * day)
        #expect(recovered.expiresDate == plusYears(recovered.purchaseDate, 1))
        current = try await status(store, "pat")
        #expect(current.status == .active && current.renewalInfo.payload.isInBillingRetryPeriod == false)

        // Cancel, then expire at the end of the period.
        let off = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: recovered.transactionId, enabled: false)
        #expect(off.payload.autoRenewStatus == .off && off.payload.renewalDate == nil)
        let end = try #require(recovered.expiresDate)
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: end - (try await store.world(AppStore.defaultWorld).nowMs()) + 1000)
        current = try await status(store, "pat")
        #expect(current.status == .expired)
        #expect(current.renewalInfo.payload.expirationIntent == .customerCancelled)
        #expect(current.renewalInfo.payload.autoRenewStatus == .off)
        #expect(try await all(store, "pat").count == 4)

        let log = try await events(store)
        #expect(log.first == "SUBSCRIBED/INITIAL_BUY")
        #expect(log.contains("DID_RENEW"))
        #expect(log.contains("DID_CHANGE_RENEWAL_PREF/UPGRADE"))
        #expect(log.contains("DID_FAIL_TO_RENEW/GRACE_PERIOD"))
        #expect(log.contains("GRACE_PERIOD_EXPIRED"))
        #expect(log.contains("DID_RENEW/BILLING_RECOVERY"))
        #expect(log.contains("DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"))
        #expect(log.last == "EXPIRED/VOLUNTARY")
        let order = ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_FAIL_TO_RENEW/GRACE_PERIOD",
                     "GRACE_PERIOD_EXPIRED", "DID_RENEW/BILLING_RECOVERY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY"]
        #expect(log.filter(order.contains) == order)
    }

    @Test func resubscribingWithinSixtyDaysKeepsRecentSubscriptionStartDate() async throws {
        for (lapseDays, keeps) in [(30, true), (70, false)] {
            let store = try await makeStore()
            let first = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "sam")).transaction?.payload)
            _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: first.transactionId, enabled: false)
            let expiry = try #require(first.expiresDate)
            _ = try await store.advanceTime(AppStore.defaultWorld, byMs: expiry - first.purchaseDate + Int64(lapseDays) * day)
            #expect(try await status(store, "sam").status == .expired)
            let again = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "sam"))
            let payload = try #require(again.transaction?.payload)
            #expect(payload.originalTransactionId == first.transactionId)
            #expect(payload.originalPurchaseDate == first.purchaseDate)
            #expect(payload.offerType == nil)
            let recent = try #require(again.renewalInfo?.payload.recentSubscriptionStartDate)
            #expect(recent == (keeps ? first.purchaseDate : payload.purchaseDate), "lapse of \(lapseDays) days")
            #expect(try await events(store).last == "SUBSCRIBED/RESUBSCRIBE")
        }
    }

    @Test func aYearJumpFiresEveryRenewalOnceAndInOrder() async throws {
        let store = try await makeStore()
        let start = try await store.world(AppStore.defaultWorld).nowMs()
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "yan"))
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 365 * day)
        let list = try await all(store, "yan")
        let renewals = list.dropFirst()
        #expect(renewals.count == 12)
        for (index, renewal) in renewals.enumerated() {
            #expect(renewal.purchaseDate == plusMonths(start + 7 * day, index))
            #expect(renewal.expiresDate == plusMonths(start + 7 * day, index + 1))
        }
        #expect(Set(list.map(\.transactionId)).count == list.count)
        let renewEvents = try await store.world(AppStore.defaultWorld).events().filter { $0.type == "DID_RENEW" }
        #expect(renewEvents.count == 12)
        #expect(renewEvents.map(\.atMs) == renewEvents.map(\.atMs).sorted())
        // Nothing fires twice when time is read again.
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 0)
        #expect(try await all(store, "yan").count == 13)
    }

    @Test func eventsDueWhileTheStoreWasDownFireWhenItReturns() async throws {
        let path = databasePath()
        let clock = TestClock()
        let first = try await makeStore(path: path, clock: clock)
        let bought = try #require(try await first.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "zoe")).transaction?.payload)
        await first.shutdown()
        await first.close()

        clock.advance(Double(7 * day + 40 * day) / 1000)   // the store is down for the trial and 40 days
        let second = try await makeStore(path: path, clock: clock)
        let list = try await all(second, "zoe")
        #expect(list.count == 3)
        #expect(list[1].purchaseDate == bought.purchaseDate + 7 * day)
        #expect(list[2].purchaseDate == plusMonths(bought.purchaseDate + 7 * day, 1))
    }

    @Test func downgradeWaitsForTheRenewal() async throws {
        let store = try await makeStore()
        let yearly = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "dee")).transaction?.payload)
        let change = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "dee"))
        #expect(change.transaction?.payload.transactionId == yearly.transactionId)
        #expect(change.renewalInfo?.payload.autoRenewProductId == "test.monthly")
        #expect(change.renewalInfo?.payload.productId == "test.yearly")
        #expect(try await all(store, "dee").count == 1)
        #expect(try await events(store).last == "DID_CHANGE_RENEWAL_PREF/DOWNGRADE")

        let expiry = try #require(yearly.expiresDate)
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: expiry - yearly.purchaseDate + 1000)
        let renewal = try #require(try await all(store, "dee").last)
        #expect(renewal.productId == "test.monthly" && renewal.price == 4990)
        #expect(renewal.purchaseDate == expiry && renewal.expiresDate == plusMonths(expiry, 1))
        #expect(renewal.offerType == nil)
    }

    @Test func refundRevokesAndStopsRenewals() async throws {
        let store = try await makeStore()
        let bought = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "rik")).transaction?.payload)
        let refunded = try await store.world(AppStore.defaultWorld).refund(transactionId: bought.transactionId, reason: .dueToIssue)
        #expect(refunded.payload.revocationReason == .dueToIssue)
        #expect(refunded.payload.revocationType == .refundFull)
        #expect(refunded.payload.revocationDate != nil)
        #expect(try await status(store, "rik").status == .revoked)
        #expect(try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "rik", scope: .entitlements).isEmpty)
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 400 * day)
        #expect(try await all(store, "rik").count == 1)
        #expect(try await events(store).last == "REFUND")
    }

    @Test func askToBuyWaitsForTheParent() async throws {
        let store = try await makeStore()
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(askToBuy: true))
        let pending = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "kid"))
        #expect(pending.status == .pending && pending.transaction == nil)
        let id = try #require(pending.pendingId)
        #expect(try await all(store, "kid").isEmpty)
        #expect(try await store.world(AppStore.defaultWorld).pendingPurchases().map(\.id) == [id])

        let approved = try #require(try await store.world(AppStore.defaultWorld).answerAskToBuy(id, approve: true))
        #expect(approved.status == .purchased && approved.transaction?.payload.productId == "test.history")
        #expect(try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "kid", scope: .unfinished).count == 1)
        #expect(try await store.world(AppStore.defaultWorld).pendingPurchases().isEmpty)

        let declined = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "kid"))
        #expect(try await store.world(AppStore.defaultWorld).answerAskToBuy(try #require(declined.pendingId), approve: false) == nil)
        #expect(try await all(store, "kid").count == 1)
    }

    @Test func interruptedPurchaseCompletesWhenResolved() async throws {
        let store = try await makeStore()
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(interruptedPurchases: true))
        let interrupted = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "ivy"))
        #expect(interrupted.status == .interrupted)
        let resolved = try await store.world(AppStore.defaultWorld).resolveIssue(try #require(interrupted.pendingId))
        #expect(resolved.transaction?.payload.productId == "test.seeds")
    }

    @Test func acceleratedRatesShortenPeriodsAsInXcode() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        _ = try await store.createWorld("fast", rate: .apple(.monthlyRenewalEveryHour))
        let bought = try #require(try await store.world("fast").purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "ace")).transaction?.payload)
        #expect(bought.expiresDate == bought.purchaseDate + 12 * 3_600_000) // a year renews every 12 hours
        clock.advance(12 * 3600 + 1)
        let list = try await all(store, "ace", world: "fast")
        #expect(list.count == 2)
        #expect(list[1].purchaseDate == bought.expiresDate)

        _ = try await store.createWorld("days", rate: .apple(.oneSecondIsOneDay))
        let before = try await store.world("days").nowMs()
        clock.advance(2)
        #expect(try await store.world("days").nowMs() - before == 2 * day)
    }

    @Test func worldsRunningAtTheSameTimeNeverSeeEachOther() async throws {
        let store = try await makeStore()
        _ = try await store.createWorld("left")
        _ = try await store.createWorld("right")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for world in ["left", "right"] {
                group.addTask {
                    for index in 0..<20 {
                        _ = try await store.world(world).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "same-name", quantity: index % 3 + 1))
                    }
                    _ = try await store.world(world).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "same-name"))
                }
            }
            try await group.waitForAll()
        }
        for world in ["left", "right"] {
            let list = try await all(store, "same-name", world: world)
            #expect(list.count == 21)
        }
        let left = Set(try await all(store, "same-name", world: "left").map(\.transactionId))
        let right = Set(try await all(store, "same-name", world: "right").map(\.transactionId))
        #expect(left.isDisjoint(with: right))
        #expect(try await all(store, "same-name").isEmpty)
        _ = try await store.advanceTime("left", byMs: 30 * day)
        #expect(try await store.world("right").nowMs() < (try await store.world("left").nowMs()) - 29 * day)
        try await store.deleteWorld("left")
        await #expect(throws: StoreError.self) { try await store.world("left").nowMs() }
        #expect(try await all(store, "same-name", world: "right").count == 21)
    }
}

@Suite(.removesTemporaryFolders) struct ClockTests {
    @Test func clockNeverRunsBackwardsAndRatesParse() {
        var clock = WorldClock.starting(at: 1_000, rate: .realTime)
        #expect(clock.worldMs(atReal: 2_000) == 2_000)
        clock.advance(by: 10_000, atReal: 2_000)
        #expect(clock.worldMs(atReal: 2_000) == 12_000)
        clock.advance(by: -5_000, atReal: 2_500)
        #expect(clock.worldMs(atReal: 2_500) == 12_500)
        clock.setRate(.multiplier(10), atReal: 3_000)
        #expect(clock.worldMs(atReal: 4_000) == 13_000 + 10_000)
        #expect(clock.worldMs(atReal: 100) >= 13_000)

        #expect(TimeRate("oneSecondIsOneDay") == .apple(.oneSecondIsOneDay))
        #expect(TimeRate("13") == .apple(.monthlyRenewalEveryFiveMinutes))
        #expect(TimeRate("720x") == .multiplier(720))
        #expect(TimeRate("fast") == nil && TimeRate("14") == nil && TimeRate("-2x") == nil)
        #expect(TimeRate.apple(.oneHourIsOneDay).clockSpeed == 24)
        #expect(TimeRate.apple(.monthlyRenewalEveryHour).clockSpeed == 1)
    }

    @Test func renewalScheduleFollowsApplesTables() {
        let month = SubscriptionPeriod(unit: .month, value: 1)
        let week = SubscriptionPeriod(unit: .week, value: 1)
        let year = SubscriptionPeriod(unit: .year, value: 1)
        #expect(RenewalSchedule.end(of: month, startingAt: 0, rate: .apple(.monthlyRenewalEveryThirtySeconds)) == 30_000)
        #expect(RenewalSchedule.end(of: year, startingAt: 0, rate: .apple(.monthlyRenewalEveryFiveMinutes)) == 3_600_000)
        #expect(RenewalSchedule.end(of: week, startingAt: 0, rate: .apple(.monthlyRenewalEveryHour)) == 900_000)
        #expect(RenewalSchedule.end(of: year, startingAt: 0, rate: .apple(.oneRenewalEveryTwoSeconds)) == 2_000)
        #expect(RenewalSchedule.gracePeriodMs(for: week, rate: .realTime) == 6 * day)
        #expect(RenewalSchedule.gracePeriodMs(for: month, rate: .realTime) == 16 * day)
        #expect(RenewalSchedule.billingRetryMs(for: month, rate: .realTime) == 60 * day)
        #expect(RenewalSchedule.gracePeriodMs(for: week, rate: .apple(.monthlyRenewalEveryThirtySeconds)) == 9_000)
        #expect(RenewalSchedule.gracePeriodMs(for: month, rate: .apple(.monthlyRenewalEveryThirtySeconds)) == 15_000)
        #expect(RenewalSchedule.billingRetryMs(for: month, rate: .apple(.monthlyRenewalEveryThirtySeconds)) == 60_000)
        #expect(RenewalSchedule.gracePeriodMs(for: month, rate: .apple(.oneRenewalEveryFifteenMinutes)) == 900_000)
        #expect(RenewalSchedule.billingRetryMs(for: month, rate: .apple(.oneRenewalEveryFifteenMinutes)) == 1_800_000)
    }
}
