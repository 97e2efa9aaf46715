import StoreModel

/// When an offer redeemed by a current subscriber takes effect. Apple: accepting an offer "will
/// either take effect immediately or at the next renewal period"; an offer code redeemed while
/// subscribed starts at the next renewal. We follow the plan-change rules: an offer for a higher
/// level starts at once (an upgrade, OFFER_REDEEMED UPGRADE); one for the current plan waits for
/// the next renewal (OFFER_REDEEMED without subtype).
public enum SubscriberOfferTiming {
    /// When a current subscriber's redeemed offer starts.
    public enum Timing: Sendable, Equatable {
        /// Same plan: the offer replaces the regular price from the next renewal on.
        case nextRenewal
        /// A higher level (or a crossgrade of equal duration): the new plan starts now with the offer.
        case immediateUpgrade
        /// A lower level, or a crossgrade of another duration: waits for the renewal in another
        /// product. Not supported: the renewal drops a running offer when the product changes.
        case atRenewalInOtherProduct
    }

    /// When an offer for `requested` starts for a subscriber of `current`, by the plan-change rules.
    public static func timing(current: CatalogProduct, requested: CatalogProduct) -> Timing {
        let change = PlanChange.between(current, requested)
        if change == .sameProduct { return .nextRenewal }
        return PlanChange.isImmediate(change, from: current, to: requested) ? .immediateUpgrade : .atRenewalInOtherProduct
    }

    /// The offer as it waits on the chain for the next renewal: the renewal takes one period of it
    /// per renewal (pay-as-you-go) or the whole offer duration at once (free trial, pay up front).
    public static func pendingOffer(_ offer: CatalogOffer, storefront: Storefront) -> SubscriptionChain.ActiveOffer {
        var pending = TransactionFactory.activeOffer(offer, storefront: storefront)
        switch offer.paymentMode {
        case .payAsYouGo:
            pending.remainingPeriods = offer.periodCount
        case .freeTrial, .payUpFront:
            pending.periodISO = offer.totalDuration.iso8601
            pending.remainingPeriods = 1
        }
        return pending
    }
}
