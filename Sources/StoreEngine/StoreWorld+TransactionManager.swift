import Foundation
import StoreModel
import StoreSigning
import StoreStorage

/// The world's verbs for the Transaction Manager's actions and App Store Connect's settings (the /manage pages, the admin API, StoreKitTest).
extension StoreWorld {
    /// Stops the world's clock (rate 0) and remembers its rate for `resumeClock`. Time still
    /// jumps with `advanceTime`.
    public func pauseClock() async throws -> WorldInfo {
        try await reported { try await store.pauseClock(id) }
    }

    /// Starts a paused clock again at the rate it had (real time if that was forgotten by a reset).
    public func resumeClock() async throws -> WorldInfo {
        try await reported { try await store.resumeClock(id) }
    }

    /// "Send now": a notification waiting for its next attempt becomes due at once; the delivery
    /// service sends it on its next pass. False when it was delivered already or is unknown.
    public func sendNotificationNow(seq: Int64) async throws -> Bool {
        try await reported { try await store.sendNotificationNow(seq: seq, world: id) }
    }

    /// Queues a TEST notification for the app, as the Server API's Request a Test Notification does.
    public func requestTestNotification(bundleId: String) async throws -> String {
        try await reported { try await store.requestTestNotification(bundleId: bundleId, world: id) }
    }

    /// Revokes a key of the world: the Server API refuses its tokens from now on.
    public func revokeAPIKey(_ keyId: String) async throws {
        try await reported { try await store.revokeAPIKey(keyId, world: id) }
    }

    /// Puts the customer in a family group (created by its first member; at most six people).
    /// Shareable purchases are shared both ways at once.
    public func joinFamily(customer: String, group: String) async throws -> FamilyMembership {
        try await reported { try await store.joinFamily(customer: customer, group: group, world: id) }
    }

    /// Takes the customer out of their family group; shared access ends both ways.
    public func leaveFamily(customer: String) async throws -> FamilyMembership {
        try await reported { try await store.leaveFamily(customer: customer, world: id) }
    }

    /// Sets (or with nil/empty removes) where an app's notifications go in a world, for one
    /// environment (default: the app's own).
    public func setNotificationURL(_ url: String?, bundleId: String, environment: String? = nil) async throws -> NotificationURLs {
        try await reported { try await store.setNotificationURL(url, bundleId: bundleId, environment: environment, world: id) }
    }

    /// The app's Production and Sandbox notification URLs in the world, and which environment it uses.
    public func notificationURLs(bundleId: String) async throws -> NotificationURLs {
        try await reported { try await store.notificationURLs(bundleId: bundleId, world: id) }
    }

    /// The URL a notification of the app goes to, in the app's environment; nil when none is set.
    public func notificationURL(bundleId: String, environment: String) async throws -> String? {
        try await reported { try await store.notificationURL(bundleId: bundleId, environment: environment, world: id) }
    }

    /// A world's notifications in emission order (for the admin API, the CLI and tests).
    public func notifications(bundleId: String? = nil, afterSeq: Int64 = 0, limit: Int = 1000) async throws -> [NotificationSummary] {
        try await reported { try await store.notifications(world: id, bundleId: bundleId, afterSeq: afterSeq, limit: limit) }
    }

    /// Makes codes for one of the app's code offers (App Store Connect's one-time or custom codes).
    public func createOfferCodes(_ request: OfferCodeBatchRequest, bundleId: String) async throws -> [OfferCodeInfo] {
        try await reported { try await store.createOfferCodes(request, bundleId: bundleId, world: id) }
    }

    /// The app's offer codes in the world, with their redemption counts, oldest first.
    public func offerCodes(bundleId: String) async throws -> [OfferCodeInfo] {
        try await reported { try await store.offerCodes(bundleId: bundleId, world: id) }
    }

    /// Every refund request in the world, pending or decided, oldest first.
    public func refundRequests() async throws -> [RefundRequest] {
        try await reported { try await store.refundRequests(world: id) }
    }

    /// Grants (`REFUND`) or declines (`REFUND_DECLINED`) a pending refund request; nil follows the
    /// developer's latest `refundPreference`, else grants in full.
    public func decideRefund(requestId: String, grant: Bool?) async throws -> RefundRequest {
        try await reported { try await store.decideRefund(requestId: requestId, grant: grant, world: id) }
    }

    /// Withdraws a refund after a dispute (`REFUND_REVERSED`); a subscription whose refunded period
    /// still runs is active again, with auto-renew off.
    public func reverseRefund(transactionId: String) async throws -> Signed<TransactionPayload> {
        try await reported { try await store.reverseRefund(transactionId: transactionId, world: id) }
    }

    /// Turns the world's Transaction Manager switches on or off (nil leaves one as it is); throws for
    /// an unknown `failureError`.
    public func setSwitches(_ switches: SessionSwitches) async throws -> WorldInfo {
        try await reported { try await store.setSwitches(switches, world: id) }
    }

    /// `setSimulatedError(_:forAPI:)`; a nil error clears it.
    public func setSimulatedError(api: String, error: String?) async throws -> WorldInfo {
        try await reported { try await store.setSimulatedError(api: api, error: error, world: id) }
    }

    /// Throws the simulated error set for `api` in the world, if any.
    public func checkSimulatedError(_ api: String) async throws {
        try await reported { try await store.checkSimulatedError(api, world: id) }
    }

    /// `enableAutoRenewForTransaction` / `disableAutoRenewForTransaction`: returns the signed renewal info after it.
    public func setAutoRenew(transactionId: String, enabled: Bool) async throws -> Signed<RenewalInfoPayload> {
        try await reported { try await store.setAutoRenew(transactionId: transactionId, enabled: enabled, world: id) }
    }

    /// `expireSubscription(productIdentifier:)`: the subscription's current period ends now.
    public func expireSubscription(transactionId: String) async throws -> Signed<RenewalInfoPayload> {
        try await reported { try await store.expireSubscription(transactionId: transactionId, world: id) }
    }

    /// `forceRenewalOfSubscription`: ends the current period and begins the next one now.
    public func forceRenewal(transactionId: String) async throws -> PurchaseOutcome {
        try await reported { try await store.forceRenewal(transactionId: transactionId, world: id) }
    }

    /// `resolveIssueForTransaction`: completes an interrupted purchase, or ends a billing issue with
    /// the renewal going through now; takes a pending purchase's or a transaction's ID.
    public func resolveIssue(_ pendingId: String) async throws -> PurchaseOutcome {
        try await reported { try await store.resolveIssue(pendingId, world: self.id) }
    }

    /// Purchases in the world still waiting for Ask to Buy or an interrupted purchase's issue.
    public func pendingPurchases() async throws -> [PendingPurchase] {
        try await reported { try await store.pendingPurchases(world: id) }
    }

    /// Approves or declines an Ask to Buy request; an approved one returns the new transaction.
    public func answerAskToBuy(_ pendingId: String, approve: Bool) async throws -> PurchaseOutcome? {
        try await reported { try await store.answerAskToBuy(pendingId, approve: approve, world: self.id) }
    }

    /// `refundTransaction`: revokes the transaction now with `reason`; a refunded current
    /// subscription period ends the subscription.
    public func refund(transactionId: String, reason: RevocationReason = .otherReason) async throws -> Signed<TransactionPayload> {
        try await reported { try await store.refund(transactionId: transactionId, reason: reason, world: id) }
    }

    /// Deletes a transaction (a subscription's: the whole subscription); see `World.deleteTransaction`.
    public func deleteTransaction(transactionId: String) async throws {
        try await reported { try await store.deleteTransaction(transactionId: transactionId, world: id) }
    }

    /// `clearTransactions()`: deletes the app's transactions and subscriptions for one customer, or
    /// for all of them when `customer` is nil.
    public func clearTransactions(bundleId: String, customer: String? = nil) async throws {
        try await reported { try await store.clearTransactions(bundleId: bundleId, customer: customer, world: id) }
    }

    /// Every subscription group the customer has subscribed to in the app, with its status: the
    /// customer's own subscriptions, then those shared with them by their family (`FAMILY_SHARED`).
    public func subscriptionStatuses(bundleId: String, customer: String) async throws -> [SubscriptionStatusItem] {
        try await reported { try await store.subscriptionStatuses(bundleId: bundleId, customer: customer, world: id) }
    }

    /// The world's App Store events in order (the seeds of server notifications).
    public func events(after seq: Int64 = 0, limit: Int = 1000) async throws -> [StoreEvent] {
        try await reported { try await store.events(world: id, after: seq, limit: limit) }
    }

    /// Whether the world simulates the "Verification" failure: signed data handed to devices
    /// should then fail verification.
    public func simulatesVerificationFailure() async throws -> Bool {
        try await reported { try await store.simulatesVerificationFailure(world: id) }
    }

    /// Registers a new Server API key for an app in a world, as App Store Connect does: the
    /// private half (the `.p8`) is returned once and never stored.
    public func createAPIKey(bundleId: String, issuerId: String? = nil) async throws -> GeneratedAPIKey {
        try await reported { try await store.createAPIKey(bundleId: bundleId, world: id, issuerId: issuerId) }
    }
}
