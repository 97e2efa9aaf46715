import Foundation
import Testing
import StoreEngine
import StoreModel
import StoreTestSupport

/// The test catalog whose yearly plan also sells "monthly with a 12-month commitment"
/// (`billingPlans[]` as Xcode 26.5 writes it).
let commitmentCatalogJSON = testCatalogJSON.replacingOccurrences(
    of: #""displayPrice" : "39.99","#,
    with: #""billingPlans" : [ { "billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "47.88", "displayPrice" : "3.99", "internalID" : "BP1", "isEnabled" : true } ], "displayPrice" : "39.99","#)

private func utcMonths(_ ms: Int64, _ months: Int) -> Int64 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.date(byAdding: .month, value: months, to: Date(milliseconds: ms))!.milliseconds
}

/// Apple, "Managing the life cycle of monthly subscriptions with a 12-month commitment" (StoreKit
/// documentation, 2026) and App Store Server API changelog 1.21.
@Suite(.removesTemporaryFolders) struct CommitmentPlanTests {
    func makeCommitmentStore() async throws -> AppStore {
        let app = try StoreApp(bundleId: testBundle, appAppleId: 1_234_567_890, environment: .sandbox, name: "Test", catalogJSON: commitmentCatalogJSON)
        return try await makeStore(apps: [app])
    }

    func buyMonthly(_ store: AppStore, _ customer: String) async throws -> PurchaseOutcome {
        var request = PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: customer)
        request.billingPlanType = "MONTHLY"
        return try await store.world(AppStore.defaultWorld).purchase(request)
    }

    func all(_ store: AppStore, _ customer: String) async throws -> [TransactionPayload] {
        try await store.world(world).transactions(bundleId: testBundle, customer: customer, scope: .all).map(\.payload)
    }

    /// "A monthly subscription with a 12-month commitment automatically bills monthly" with
    /// `billingPlanType` MONTHLY and `commitmentInfo` giving "the progress, price and expiration".
    @Test func aCommitmentBillsTwelveMonthsThenRenewsIntoPeriodOneOfANewCommitment() async throws {
        let store = try await makeCommitmentStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        let first = try await buyMonthly(store, "ana")
        let transaction = try #require(first.transaction?.payload)
        #expect(transaction.billingPlanType == .monthly)
        #expect(transaction.price == 3990 && transaction.expiresDate == utcMonths(t0, 1))
        #expect(transaction.commitmentInfo == TransactionCommitmentInfo(
            billingPeriodNumber: 1, commitmentExpiresDate: utcMonths(t0, 12), commitmentPrice: 47880, totalBillingPeriods: 12))
        let renewal = try #require(first.renewalInfo?.payload)
        #expect(renewal.renewalBillingPlanType == .monthly && renewal.autoRenewStatus == .on && renewal.renewalPrice == 3990)
        #expect(renewal.commitmentInfo == RenewalCommitmentInfo(
            commitmentAutoRenewProductId: "test.yearly", commitmentAutoRenewStatus: .on, commitmentRenewalBillingPlanType: .monthly,
            commitmentRenewalDate: utcMonths(t0, 12), commitmentRenewalPrice: 47880))

        // Twelve monthly periods, then period 1 of the next commitment.
        _ = try await store.advanceTime(world, byMs: utcMonths(t0, 12) - t0 + 1000)
        let list = try await all(store, "ana")
        #expect(list.count == 13)
        #expect(list.map { $0.commitmentInfo?.billingPeriodNumber } == (1...12).map { Optional($0) } + [1])
        #expect(list[11].expiresDate == utcMonths(t0, 12) && list[11].transactionReason == .renewal)
        #expect(list[12].commitmentInfo?.commitmentExpiresDate == utcMonths(t0, 24))
        #expect(list.allSatisfy { $0.billingPlanType == .monthly && $0.price == 3990 && $0.originalTransactionId == transaction.transactionId })
        let events = try await store.eventNames()
        #expect(events == ["SUBSCRIBED/INITIAL_BUY"] + Array(repeating: "DID_RENEW", count: 12))
        // No escaping the commitment through a plan change (not modelled, so refused).
        let change = PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "ana")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(change) } == "invalidAction")
    }

    /// "When a customer cancels … they're canceling the renewal of the commitment, not the
    /// remaining payments": `commitmentAutoRenewStatus` 0, `autoRenewStatus` stays 1, DID_RENEW
    /// for each remaining period, then EXPIRED after the 12th.
    @Test func cancellingEndsTheCommitmentAfterItsTwelfthPeriodNotBefore() async throws {
        let store = try await makeCommitmentStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        let first = try #require(try await buyMonthly(store, "ben").transaction?.payload)
        _ = try await store.advanceTime(world, byMs: utcMonths(t0, 1) - t0 + 1000)
        let cancelled = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: first.transactionId, enabled: false).payload
        #expect(cancelled.autoRenewStatus == .on)
        #expect(cancelled.commitmentInfo?.commitmentAutoRenewStatus == .off)
        _ = try await store.advanceTime(world, byMs: utcMonths(t0, 12) - utcMonths(t0, 1) + 1000)
        let events = try await store.eventNames()
        #expect(events == ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"]
            + Array(repeating: "DID_RENEW", count: 10) + ["EXPIRED/VOLUNTARY"])
        let status = try await store.status("ben")
        #expect(status.status == .expired && status.renewalInfo.payload.commitmentInfo == nil)
        #expect(status.transaction.payload.commitmentInfo?.billingPeriodNumber == 12)
    }

    /// "Billing Grace Period doesn't apply to monthly subscriptions with 12-month commitments";
    /// after a recovery "commitmentExpiresDate shifts to a new billing date".
    @Test func noGracePeriodAndARecoveryShiftsTheCommitmentEnd() async throws {
        let store = try await makeCommitmentStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        _ = try await buyMonthly(store, "cy")
        var switches = SessionSwitches()
        switches.billingGracePeriod = true
        switches.failRenewals = true
        _ = try await store.world(world).setSwitches(switches)
        _ = try await store.advanceTime(world, byMs: utcMonths(t0, 1) - t0 + 1000)
        #expect(try await store.status("cy").status == .billingRetry)
        switches = SessionSwitches()
        switches.failRenewals = false
        _ = try await store.world(world).setSwitches(switches)
        _ = try await store.advanceTime(world, byMs: 3 * dayMs)
        let recovered = try #require(try await all(store, "cy").last)
        #expect(recovered.commitmentInfo?.billingPeriodNumber == 2)
        let shift = recovered.purchaseDate - utcMonths(t0, 1)
        #expect(shift > 0 && recovered.commitmentInfo?.commitmentExpiresDate == utcMonths(t0, 12) + shift)
        #expect(try await store.eventNames().contains("DID_RENEW/BILLING_RECOVERY"))
    }

    /// "If the refund applies to a prior billing period … the commitment continues unaffected";
    /// "If the refund applies to the current billing period, the commitment ends immediately."
    @Test func refundsOfAPriorPeriodKeepTheCommitmentAndOfTheCurrentOneEndIt() async throws {
        let store = try await makeCommitmentStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        let first = try #require(try await buyMonthly(store, "gus").transaction?.payload)
        _ = try await store.advanceTime(world, byMs: utcMonths(t0, 1) - t0 + 1000)
        _ = try await store.world(world).refund(transactionId: first.transactionId, reason: .otherReason)
        var status = try await store.status("gus")
        #expect(status.status == .active && status.renewalInfo.payload.commitmentInfo?.commitmentAutoRenewStatus == .on)
        let current = status.transaction.payload
        #expect(current.commitmentInfo?.billingPeriodNumber == 2)
        _ = try await store.world(world).refund(transactionId: current.transactionId, reason: .otherReason)
        status = try await store.status("gus")
        #expect(status.status == .revoked && status.renewalInfo.payload.commitmentInfo == nil)
    }

    /// Up-front purchases of a product with billing plans say BILLED_UPFRONT and carry no
    /// commitment ("For Transactions with an .upfront billingPlanType, commitmentInfo is nil").
    @Test func upFrontPurchasesSayBilledUpfrontAndBadPlansAreRefused() async throws {
        let store = try await makeCommitmentStore()
        let yearly = try await store.subscribe("dee")
        #expect(yearly.billingPlanType == .billedUpfront && yearly.commitmentInfo == nil && yearly.price == 39990)
        let monthly = try await store.subscribe("eve", to: "test.monthly")
        #expect(monthly.billingPlanType == nil)
        var request = PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "fay")
        request.billingPlanType = "MONTHLY"
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == "productUnavailable")
        request.productId = "test.yearly"
        request.billingPlanType = "WEEKLY"
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == "malformedRequest")
        // Already subscribed up front: a commitment does not replace a running subscription.
        request.customer = "dee"
        request.billingPlanType = "MONTHLY"
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == "invalidAction")
    }
}
