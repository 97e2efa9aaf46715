import StoreKitTypes

/// Which offer a subscription merchandising view shows for a plan and applies when it is bought
/// (`SubscriptionStoreView`'s options, `SubscriptionOfferView`'s `activeOffer`).
enum ActiveOffer {
    /// The offer shown and applied: `preferredSubscriptionOffer`'s choice among eligible offers,
    /// else the best win-back offer a lapsed subscriber is eligible for (Apple: "StoreKit views
    /// automatically support displaying pricing details in the SubscriptionStoreView for all
    /// subscription offers"), else the intro offer when the customer is eligible.
    static func choose(for product: Product, _ context: RenderContext) -> Product.SubscriptionOffer? {
        let intro = PriceText.eligibleIntroOffer(product, store: context.store)
        let winBack = context.store.eligibleWinBackOffers(for: product)
        if let choose = context.environment.preferredSubscriptionOffer, let info = product.subscription {
            return choose(product, info, winBack + (intro.map { [$0] } ?? [])) ?? intro
        }
        return winBack.first ?? intro
    }
}
