import StoreKitTypes

/// The `subscription-offer` demo page: iOS 26's `SubscriptionOfferView` for the Backyard Birds
/// Pass in each look — `.automatic` with the app's icon, `.compact` with a symbol, and a custom
/// style that draws its own banner and subscribes from its own button. A new customer is offered
/// the intro offer, a lapsed one the best win-back offer of their renewal info.
struct SubscriptionOfferShop: View {
    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text("Subscription offers — Backyard Birds Pass").font(.largeTitle)
            GallerySection(id: "offer-automatic", title: "SubscriptionOfferView · .automatic") {
                SubscriptionOfferView(groupID: BackyardBirds.passGroupID, visibleRelationship: .all, useAppIcon: true)
            }
            GallerySection(id: "offer-compact", title: "SubscriptionOfferView · .compact") {
                SubscriptionOfferView(groupID: BackyardBirds.passGroupID, visibleRelationship: .all) { Image(systemName: "crown.fill") }
                    .subscriptionOfferViewStyle(.compact)
            }
            GallerySection(id: "offer-custom", title: "SubscriptionOfferView · custom style") {
                SubscriptionOfferView(groupID: BackyardBirds.passGroupID, visibleRelationship: .all) { Image(systemName: "bird.fill") }
                    .subscriptionOfferViewStyle(BannerOfferStyle())
            }
        }
    }
}

/// A custom offer style: a headline naming the offer from the configuration, then a button of its
/// own that calls `configuration.subscribe()`.
struct BannerOfferStyle: SubscriptionOfferViewStyle {
    func makeBody(configuration: Configuration) -> some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack(spacing: 8) {
                configuration.icon
                Text(Self.headline(configuration)).font(.title3)
            }
            Button(configuration.activeOffer == nil ? "Join the Pass" : "Claim the offer") { configuration.subscribe() }
        }
        .padding(12)
    }

    static func headline(_ configuration: Configuration) -> String {
        guard let plan = configuration.visibleSubscription else { return "No plan to offer" }
        guard let offer = configuration.activeOffer else { return "\(plan.displayName): \(plan.displayPrice)" }
        return "\(plan.displayName): \(PriceText.offer(offer))"
    }
}
