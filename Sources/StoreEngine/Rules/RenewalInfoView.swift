import StoreModel

/// `JWSRenewalInfoDecodedPayload` as a view of a subscription chain at `nowMs`.
public enum RenewalInfoView {
    /// The chain's renewal info as it stands at `nowMs`, with the win-back offers it may list.
    public static func payload(of chain: SubscriptionChain, environment: StoreEnvironment, nowMs: Int64, winBackOfferIds: [String] = []) -> RenewalInfoPayload {
        let renewing = chain.autoRenewEnabled && (chain.state == .active || chain.state == .gracePeriod || chain.state == .billingRetry)
        let price = chain.priceIncrease.map { $0.newPriceMilliunits } ?? chain.renewalPriceMilliunits
        var info = RenewalInfoPayload(
            originalTransactionId: String(chain.originalTransactionId),
            autoRenewProductId: chain.autoRenewProductId,
            productId: chain.productId,
            autoRenewStatus: chain.autoRenewEnabled ? .on : .off,
            expirationIntent: chain.state == .expired || chain.state == .revoked ? chain.expirationIntent : nil,
            isInBillingRetryPeriod: chain.state == .gracePeriod || chain.state == .billingRetry,
            priceIncreaseStatus: chain.priceIncrease.map { $0.accepted ? .consentedOrNotified : .notResponded },
            gracePeriodExpiresDate: chain.state == .gracePeriod ? chain.gracePeriodExpiresMs : nil,
            signedDate: nowMs,
            environment: environment,
            recentSubscriptionStartDate: chain.recentSubscriptionStartMs,
            renewalDate: renewing ? chain.expiresMs : nil,
            currency: chain.currency,
            renewalPrice: price,
            appAccountToken: chain.appAccountToken,
            appTransactionId: chain.appTransactionId)
        // The offer the next renewal will get: a pay-as-you-go offer with periods left.
        if let offer = chain.offer, offer.remainingPeriods > 0 {
            info.offerType = offer.type
            info.offerIdentifier = offer.identifier
            info.offerDiscountType = offer.discountType
            info.offerPeriod = offer.offerPeriodISO
            info.renewalPrice = offer.priceMilliunits
        }
        // In a 12-month commitment the next renewal is another monthly period of it.
        if let commitment = BillingPlanCommitment.renewalInfo(chain), let running = chain.commitment {
            info.renewalBillingPlanType = .monthly
            info.commitmentInfo = commitment
            info.renewalPrice = running.monthlyPriceMilliunits
        }
        // Apple lists win-back offers only for lapsed subscribers, never in grace or billing retry.
        if chain.state == .expired, !winBackOfferIds.isEmpty { info.eligibleWinBackOfferIds = winBackOfferIds }
        return info
    }
}
