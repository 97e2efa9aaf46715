import Foundation
import StoreModel
import StoreStorage

/// StoreKit Messages: the App Store queues a message when something needs the customer's
/// attention (a price increase to consent to, a billing issue, a win-back offer) and the app
/// receives it through `Message.messages` when it comes to the foreground. A message is read once
/// it is displayed; handing it out alone does not count, so an app that defers it gets it again.
extension World {
    /// Every message of the world (waiting or displayed), oldest first.
    func allMessages() async throws -> [StoreMessage] {
        try await env.database.worldRecords(world: id, kind: StoreMessage.recordKind)
            .compactMap { try? PayloadCoding.decoder.decode(StoreMessage.self, from: Data($0.value.utf8)) }
            .sorted { ($0.createdDate, $0.seq) < ($1.createdDate, $1.seq) }
    }

    /// The messages waiting for the customer in the app: what the device receives when the app
    /// comes to the foreground. Events due by now fire first, so a billing issue that began while
    /// nobody looked is already queued.
    func waitingMessages(bundleId: String, customer: String) async throws -> [StoreMessage] {
        try await catchUp()
        return try await allMessages().filter { $0.bundleId == bundleId && $0.customer == customer && $0.displayedDate == nil }
    }

    /// `Message.display(in:)`: the message is read and never handed out again. Displaying it a
    /// second time changes nothing.
    func displayMessage(_ messageId: String, bundleId: String, customer: String) async throws -> StoreMessage {
        try await catchUp()
        guard var message = try await allMessages().first(where: { $0.id == messageId && $0.bundleId == bundleId && $0.customer == customer }) else {
            throw StoreError.notFound("no StoreKit message \(messageId) for \(customer) in \(bundleId)")
        }
        guard message.displayedDate == nil else { return message }
        message.displayedDate = nowMs()
        try await commit(WriteBatch(worldRecords: [message.record(world: id)]))
        return message
    }

    /// Queues a message in `batch`; it becomes visible when the batch commits.
    @discardableResult
    func queueMessage(_ reason: StoreMessage.Reason, bundleId: String, customer: String, chain: SubscriptionChain?, at ms: Int64,
                      newPrice: Int64? = nil, winBackOfferIds: [String]? = nil, reusing existingId: String? = nil,
                      in batch: inout WriteBatch) -> StoreMessage {
        let message = StoreMessage(
            id: existingId ?? env.identifiers.uuid(), reason: reason, bundleId: bundleId, customer: customer,
            createdDate: ms, displayedDate: nil, originalTransactionId: chain.map { String($0.originalTransactionId) },
            productId: chain?.productId, newPrice: newPrice, currency: newPrice == nil ? nil : chain?.currency,
            winBackOfferIds: winBackOfferIds, seq: env.identifiers.nextSeq())
        batch.worldRecords.removeAll { $0.kind == StoreMessage.recordKind && $0.key == message.id }
        batch.worldRecords.append(message.record(world: id))
        return message
    }

    /// Hook for the scheduler: a renewal failed and the chain entered billing retry (or its grace
    /// period). StoreKit's `.billingIssue` message asks the customer to update their payment method.
    func queueBillingIssueMessage(for chain: SubscriptionChain, at ms: Int64, in batch: inout WriteBatch) {
        guard chain.ownership == .purchased else { return }
        queueMessage(.billingIssue, bundleId: chain.bundleId, customer: chain.customer, chain: chain, at: ms, in: &batch)
    }

    /// Hook for the scheduler: the chain expired. When its group has win-back offers the customer
    /// qualifies for, StoreKit's `.winBackOffer` message presents them (iOS 18). Apple does not
    /// publish when it sends it; we queue it at expiry, when `eligibleWinBackOfferIds` appears.
    func queueWinBackMessage(for chain: SubscriptionChain, at ms: Int64, in batch: inout WriteBatch) {
        guard chain.ownership == .purchased, let app = env.apps[chain.bundleId] else { return }
        let offers = OfferEligibility.winBackOfferIds(for: chain, catalog: app.catalog)
        guard !offers.isEmpty else { return }
        queueMessage(.winBackOffer, bundleId: chain.bundleId, customer: chain.customer, chain: chain, at: ms,
                     winBackOfferIds: offers, in: &batch)
    }

    /// The waiting price-increase consent message of a subscription, if any.
    func waitingConsentMessage(for chain: SubscriptionChain) async throws -> StoreMessage? {
        let original = String(chain.originalTransactionId)
        return try await allMessages().last {
            $0.reason == .priceIncreaseConsent && $0.displayedDate == nil && $0.originalTransactionId == original
                && $0.bundleId == chain.bundleId && $0.customer == chain.customer
        }
    }
}
