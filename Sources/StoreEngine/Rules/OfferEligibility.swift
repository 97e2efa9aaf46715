import StoreModel

/// Who may redeem which subscription offer.
public enum OfferEligibility {
    /// Introductory offers are for new subscribers only: a customer who has ever subscribed to any
    /// product of the group, or received an intro offer in it, is no longer eligible (Apple:
    /// "never been subscribed to any of the subscriptions in a given subscription group").
    public static func isEligibleForIntroOffer(groupId: String, history: [OwnedTransaction]) -> Bool {
        !history.contains { $0.kind == .autoRenewable && $0.groupId == groupId }
    }

    /// The intro offer a first purchase gets, if the product has one and the customer qualifies.
    public static func introductoryOffer(for product: CatalogProduct, history: [OwnedTransaction]) -> CatalogOffer? {
        guard let subscription = product.subscription,
              let offer = subscription.introductoryOffer ?? subscription.introductoryOffers.first,
              isEligibleForIntroOffer(groupId: subscription.groupID, history: history)
        else { return nil }
        return offer
    }

    /// The product's introductory offer, whoever buys.
    public static func introductoryOffer(of product: CatalogProduct) -> CatalogOffer? {
        product.subscription.flatMap { $0.introductoryOffer ?? $0.introductoryOffers.first }
    }

    /// The intro offer a first purchase gets when the developer may have signed a verdict
    /// (`introductoryOfferEligibility(compactJWS:)`): the verdict decides; without one, Apple's rule.
    public static func introductoryOffer(for product: CatalogProduct, history: [OwnedTransaction], allowed: Bool?) -> CatalogOffer? {
        switch allowed {
        case nil: introductoryOffer(for: product, history: history)
        case true?: introductoryOffer(of: product)
        case false?: nil
        }
    }
}

extension OfferEligibility {
    /// Win-back offers a lapsed subscriber may redeem, best first (the catalog's order). Apple lists
    /// them only once the subscription has expired, never during grace or billing retry.
    public static func winBackOfferIds(for chain: SubscriptionChain, catalog: Catalog) -> [String] {
        guard chain.state == .expired else { return [] }
        return catalog.products
            .filter { $0.subscription?.groupID == chain.groupId }
            .flatMap { $0.subscription?.winBackOffers ?? [] }
            .compactMap { $0.id ?? $0.referenceName }
    }
}
