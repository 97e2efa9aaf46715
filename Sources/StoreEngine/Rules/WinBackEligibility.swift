import StoreModel

/// Who may redeem a win-back offer: a customer whose subscription in the group has churned
/// (expired, not renewing) and whose renewal info lists the offer among `eligibleWinBackOfferIds`.
/// Never during a grace period or billing retry, and never a customer who never subscribed.
public enum WinBackEligibility {
    /// The product's win-back offer with this identifier.
    public static func offer(id: String, for product: CatalogProduct) -> CatalogOffer? {
        product.subscription?.winBackOffers.first { ($0.id ?? $0.referenceName) == id }
    }

    /// Whether the customer's subscription in the group lists `offerId` among its eligible win-back
    /// offers; false for a customer who never subscribed.
    public static func isEligible(offerId: String, chain: SubscriptionChain?, catalog: Catalog) -> Bool {
        guard let chain else { return false }
        return OfferEligibility.winBackOfferIds(for: chain, catalog: catalog).contains(offerId)
    }
}
