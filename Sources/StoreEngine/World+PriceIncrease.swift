import Foundation
import StoreModel
import StoreStorage

/// Subscription price increases, as the Transaction Manager drives them
/// (`requestPriceIncreaseConsentForTransaction`, `consentToPriceIncreaseForTransaction`,
/// `declinePriceIncreaseForTransaction`). The scheduler applies the outcome at the renewal date:
/// an accepted increase is charged, a pending one expires the subscription with intent 3.
extension World {
    /// Announces a price increase. With consent it waits (PRICE_INCREASE / PENDING) and the
    /// customer gets a `.priceIncreaseConsent` message; asking again replaces the price and the
    /// waiting message rather than stacking a second one. Notify-only is accepted at once
    /// (PRICE_INCREASE / ACCEPTED) and sends no consent message.
    func requestPriceIncrease(transactionId: Int64, newPriceMilliunits: Int64, mode: PriceIncreaseMode) async throws -> SubscriptionChain {
        let found = try await chain(containing: transactionId)
        let waiting = try await waitingConsentMessage(for: found)
        // No suspension from here to the commit: the rules see one consistent chain.
        var chain = chains[found.originalTransactionId] ?? found
        try PriceIncreaseRules.check(newPriceMilliunits: newPriceMilliunits, over: chain)
        let now = nowMs()
        var batch = WriteBatch()
        chain.priceIncrease = SubscriptionChain.PriceIncrease(
            newPriceMilliunits: newPriceMilliunits, needsConsent: mode == .consent, accepted: mode == .notify)
        store(chain, in: &batch)
        emit(.priceIncrease, mode == .consent ? .pending : .accepted, chain: chain, key: key(of: chain),
             transactionId: chain.latestTransactionId, atMs: now, in: &batch)
        if mode == .consent {
            queueMessage(.priceIncreaseConsent, bundleId: chain.bundleId, customer: chain.customer, chain: chain, at: now,
                         newPrice: newPriceMilliunits, reusing: waiting?.id, in: &batch)
        }
        try await commit(batch)
        if mode == .notify, let waiting { try await withdraw(waiting) }
        return chains[chain.originalTransactionId] ?? chain
    }

    /// The customer agrees (PRICE_INCREASE / ACCEPTED); the next renewal charges the new price.
    /// Consenting after declining turns auto-renew back on, since the customer now agrees to renew.
    /// Consenting twice changes nothing.
    func consentToPriceIncrease(transactionId: Int64) async throws -> SubscriptionChain {
        let found = try await chain(containing: transactionId)
        let waiting = try await waitingConsentMessage(for: found)
        var chain = chains[found.originalTransactionId] ?? found
        guard let increase = chain.priceIncrease, increase.needsConsent else {
            throw StoreError.invalidAction("no price increase waits for the customer's consent on transaction \(transactionId)")
        }
        if increase.accepted { return chain }
        let now = nowMs()
        var batch = WriteBatch()
        chain.priceIncrease?.accepted = true
        let reenable = !chain.autoRenewEnabled && chain.expirationIntent == .didNotConsentToPriceIncrease
        if reenable {
            chain.autoRenewEnabled = true
            chain.expirationIntent = nil
        }
        store(chain, in: &batch)
        emit(.priceIncrease, .accepted, chain: chain, key: key(of: chain), transactionId: chain.latestTransactionId, atMs: now, in: &batch)
        if reenable {
            emit(.didChangeRenewalStatus, .autoRenewEnabled, chain: chain, key: key(of: chain),
                 transactionId: chain.latestTransactionId, atMs: now, in: &batch)
        }
        try await commit(batch)
        if let waiting { try await withdraw(waiting) }
        return chains[chain.originalTransactionId] ?? chain
    }

    /// The customer declines: auto-renew turns off (DID_CHANGE_RENEWAL_STATUS /
    /// AUTO_RENEW_DISABLED) with `expirationIntent` 3, so the period ends with EXPIRED /
    /// PRICE_INCREASE. The increase stays pending (`priceIncreaseStatus` 0): the customer may
    /// still consent before the renewal date.
    func declinePriceIncrease(transactionId: Int64) async throws -> SubscriptionChain {
        let found = try await chain(containing: transactionId)
        let waiting = try await waitingConsentMessage(for: found)
        var chain = chains[found.originalTransactionId] ?? found
        guard let increase = chain.priceIncrease, increase.needsConsent, !increase.accepted else {
            throw StoreError.invalidAction("no price increase waits for the customer's answer on transaction \(transactionId)")
        }
        let now = nowMs()
        var batch = WriteBatch()
        let wasRenewing = chain.autoRenewEnabled
        chain.autoRenewEnabled = false
        chain.expirationIntent = .didNotConsentToPriceIncrease
        store(chain, in: &batch)
        if wasRenewing {
            emit(.didChangeRenewalStatus, .autoRenewDisabled, chain: chain, key: key(of: chain),
                 transactionId: chain.latestTransactionId, atMs: now, in: &batch)
        }
        try await commit(batch)
        if let waiting { try await withdraw(waiting) }
        return chains[chain.originalTransactionId] ?? chain
    }

    /// A consent message whose question was answered some other way no longer waits.
    func withdraw(_ message: StoreMessage) async throws {
        try await env.database.deleteWorldRecord(world: id, kind: StoreMessage.recordKind, key: message.id)
    }
}
