/// The pages `openstore serve` shows at `/store`, each selling from an embedded demo catalog.
public enum DemoStorePages {
    /// Every demo page, in the order the page index lists them.
    public static let all: [StorePage] = [
        StorePage(id: "backyard-birds", bundleId: BackyardBirds.bundleId, title: "Backyard Birds — Bird Food Shop",
                  summary: "ProductView in large, regular and compact styles; an upgrade offer for Pass subscribers.") {
            AnyView(BirdFoodShop())
        },
        StorePage(id: "backyard-birds-pass", bundleId: BackyardBirds.bundleId, title: "Backyard Birds Pass",
                  summary: "SubscriptionStoreView with marketing content, a full-height background and a redeem-code button.") {
            AnyView(BackyardBirdsPassShop())
        },
        StorePage(id: "subscription-offer", bundleId: BackyardBirds.bundleId, title: "Backyard Birds — Subscription offers",
                  summary: "SubscriptionOfferView (iOS 26): automatic with the app icon, compact, and a custom style; win-back offers for lapsed subscribers.") {
            AnyView(SubscriptionOfferShop())
        },
        StorePage(id: "food-truck", bundleId: FoodTruck.bundleId, title: "Food Truck",
                  summary: "StoreView of the annual sales history, Social Feed+ and a subscription status panel.") {
            AnyView(FoodTruckStore())
        },
        StorePage(id: "gallery", bundleId: BackyardBirds.bundleId, title: "Style gallery — Backyard Birds",
                  summary: "Every product view style and every control style.") {
            AnyView(Gallery(title: "Style gallery — Backyard Birds"))
        },
        StorePage(id: "food-truck-gallery", bundleId: FoodTruck.bundleId, title: "Style gallery — Food Truck",
                  summary: "Every product view style and every control style for Food Truck's catalog.") {
            AnyView(Gallery(title: "Style gallery — Food Truck"))
        },
        // Listed when the store sells Tests/Fixtures/storekit1.storekit as com.example.paywall.
        StorePage(id: "paywall", bundleId: Paywall.bundleId, title: "Paywall — the Apphud article's PurchaseView",
                  summary: "Two subscriptions, the article's status lines, Restore purchases and Not now.") {
            AnyView(PaywallPage())
        },
    ]

    /// The demo page with this ID, or nil.
    public static func page(_ id: String) -> StorePage? {
        all.first { $0.id == id }
    }
}

/// A gallery page: a title, then the catalog in every style.
struct Gallery: View {
    let title: String
    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Text(title).font(.largeTitle)
            StoreReader { store, _ in CatalogPreview(products: store.products) }
        }
    }
}
