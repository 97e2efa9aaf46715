import Foundation
import StoreModel
import StoreStorage

/// Buying and cancelling a monthly plan with a 12-month commitment (rules in
/// `BillingPlanCommitment`).
extension World {
    /// A purchase with `billingPlanType(.monthly)`: a first subscription in the group or a
    /// resubscription after a lapse. Plan changes into or out of a running commitment are not
    /// modelled, so an active subscription in the group refuses it.
    func subscribeWithCommitment(
        app: StoreApp, product: CatalogProduct, plan: BillingPlan, storefront: Storefront, key: CustomerKey, token: String?,
        appTransactionId: String, chain existing: SubscriptionChain?, now: Int64, batch: inout WriteBatch
    ) throws -> WorldPurchase {
        guard let subscription = product.subscription else { throw StoreError.productUnavailable(product.id) }
        if let existing, existing.state != .expired, existing.state != .revoked {
            throw StoreError.invalidAction(
                "the customer already has a subscription in group \(subscription.groupID); a 12-month commitment starts with a new subscription or a resubscription")
        }
        let transactionId = env.identifiers.nextId()
        let commitment = BillingPlanCommitment.start(plan, storefront: storefront, startMs: now, rate: rate)
        let expires = BillingPlanCommitment.periodEnd(commitment, startMs: now, rate: rate)
        var chain: SubscriptionChain
        let subtype: NotificationSubtype
        if var lapsed = existing {
            lapsed.recentSubscriptionStartMs = RecentSubscriptionStart.afterResubscribing(
                previousStartMs: lapsed.recentSubscriptionStartMs, lastExpiryMs: lapsed.expiresMs, resubscribedMs: now)
            lapsed.beginPeriod(productId: product.id, transactionId: transactionId, startMs: now, expiresMs: expires,
                               regularPriceMilliunits: commitment.monthlyPriceMilliunits, offer: nil)
            if let token { lapsed.appAccountToken = token }
            chain = lapsed
            subtype = .resubscribe
        } else {
            chain = SubscriptionChain(
                originalTransactionId: transactionId, bundleId: app.bundleId, customer: key.customer,
                groupId: subscription.groupID, originalPurchaseMs: now, productId: product.id,
                autoRenewProductId: product.id, autoRenewEnabled: true, latestTransactionId: transactionId,
                periodStartMs: now, expiresMs: expires, state: .active, recentSubscriptionStartMs: now,
                storefront: storefront.countryCode, storefrontId: storefront.id, currency: storefront.currency,
                renewalPriceMilliunits: commitment.monthlyPriceMilliunits, offer: nil,
                appAccountToken: token, appTransactionId: appTransactionId, ownership: .purchased,
                extensionDatesMs: [], version: 0)
            chain.schedule(.renewal, at: expires)
            subtype = .initialBuy
        }
        chain.commitment = commitment
        let payload = TransactionFactory.subscriptionPeriod(
            chain: chain, app: app, product: product, transactionId: transactionId, purchaseMs: now,
            expiresMs: expires, priceMilliunits: commitment.monthlyPriceMilliunits, reason: .purchase, offer: nil)
        let record = try store(payload, kind: .autoRenewable, customer: key.customer, in: &batch)
        store(chain, in: &batch)
        emit(.subscribed, subtype, chain: chain, key: key, transactionId: record.id, atMs: now, in: &batch)
        try shareWithFamily(record, product: product, app: app, in: &batch)
        return WorldPurchase(status: .purchased, transaction: record, chain: chains[chain.originalTransactionId])
    }

    /// Cancelling (or restoring) a commitment: Apple turns off `commitmentAutoRenewStatus` only;
    /// `autoRenewStatus` stays 1 because the remaining monthly payments are still due.
    func setCommitmentAutoRenew(_ chain: SubscriptionChain, enabled: Bool) async throws -> SubscriptionChain {
        guard var commitment = chain.commitment, commitment.autoRenew != enabled else { return chain }
        guard chain.state != .expired && chain.state != .revoked else {
            throw StoreError.invalidAction("the subscription has ended; buy it again to resubscribe")
        }
        var chain = chain
        var batch = WriteBatch()
        commitment.autoRenew = enabled
        chain.commitment = commitment
        chain.expirationIntent = enabled ? nil : .customerCancelled
        store(chain, in: &batch)
        emit(.didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled, chain: chain,
             key: key(of: chain), transactionId: chain.latestTransactionId, atMs: nowMs(), in: &batch)
        try await commit(batch)
        return chains[chain.originalTransactionId] ?? chain
    }
}
