import Foundation
import StoreKitTypes

/// The Backyard Birds store from WWDC23's "Meet StoreKit for SwiftUI", ported almost verbatim.
public enum BackyardBirds {
    /// The demo catalog's app; the Backyard Birds pages sell from it.
    public static let bundleId = "com.example.backyardbirds"
    /// The Backyard Birds Pass subscription group, sold by the Pass shop and the upgrade offer.
    public static let passGroupID = "BB0PASS1"
    /// The feast bundle, shown large as the shop's "Best Value".
    public static let bestValue = "com.example.backyardbirds.feastbundle"
    /// The bird foods on the shelves: the first three regular, the last two compact.
    public static let birdFood = [
        "com.example.backyardbirds.pellets", "com.example.backyardbirds.sunflowerseeds", "com.example.backyardbirds.nectar",
        "com.example.backyardbirds.suetcake", "com.example.backyardbirds.mealworms",
    ]
    /// Each bird food's symbol (drawn as inline SVG, so it shows without an emoji font).
    static let symbols: [String: String] = [
        "com.example.backyardbirds.pellets": "circle.grid.2x2.fill", "com.example.backyardbirds.sunflowerseeds": "sun.max.fill",
        "com.example.backyardbirds.nectar": "drop.fill", "com.example.backyardbirds.suetcake": "square.stack.fill",
        "com.example.backyardbirds.mealworms": "scribble", "com.example.backyardbirds.feastbundle": "basket.fill",
    ]
}

/// The bird-food shop: a large "best value" product above shelves of regular and compact views,
/// and an upgrade offer for Pass subscribers below the top level.
public struct BirdFoodShop: View {
    @State var passStatus: EntitlementTaskState<[Product.SubscriptionInfo.Status]> = .loading

    /// A fresh shop; the Pass status loads when the page renders.
    public init() {}

    /// The shop's products, the upgrade offer, and the Pass status task that feeds it.
    public var body: some View {
        VStack(alignment: .leading, spacing: 20) {
            Text("Bird Food Shop").font(.largeTitle)
            VStack(alignment: .center, spacing: 8) {
                Text("Best Value").font(.headline).foregroundStyle(Color.orange)
                ProductView(id: BackyardBirds.bestValue) { BirdFoodIcon(id: BackyardBirds.bestValue) }
                    .productViewStyle(.large)
                    .productIconBorder()
            }
            .cssClass("bb-best-value")
            Text("Seeds & Treats").font(.title2)
            VStack(alignment: .leading, spacing: 10) {
                ForEach(BackyardBirds.birdFood.prefix(3), id: \.self) { id in
                    ProductView(id: id) { BirdFoodIcon(id: id) }
                }
            }
            .productViewStyle(.regular)
            Text("Quick Refills").font(.title2)
            VStack(alignment: .leading, spacing: 8) {
                ForEach(BackyardBirds.birdFood.suffix(2), id: \.self) { id in
                    ProductView(id: id) { BirdFoodIcon(id: id) }
                }
            }
            .productViewStyle(.compact)
            PassUpgradeOffer(status: passStatus)
        }
        .subscriptionStatusTask(for: BackyardBirds.passGroupID) { passStatus = $0 }
    }
}

struct BirdFoodIcon: View {
    let id: String
    var body: some View { Image(systemName: BackyardBirds.symbols[id] ?? "bird.fill") }
}

/// Shown only to a subscriber whose plan is below the top level: the Pass store in upgrade mode.
struct PassUpgradeOffer: View {
    let status: EntitlementTaskState<[Product.SubscriptionInfo.Status]>

    var body: some View {
        StoreReader { store, _ in
            if let level = Self.activeLevel(status, store), level > 1 {
                VStack(alignment: .leading, spacing: 8) {
                    Text("Upgrade your Pass").font(.title2)
                    SubscriptionStoreView(groupID: BackyardBirds.passGroupID, visibleRelationships: .upgrade) {
                        PassMarketingContent(showPremiumUpgrade: true)
                    }
                    .subscriptionStoreControlStyle(.buttons)
                }
                .cssClass("bb-upgrade-offer")
            }
        }
    }

    static func activeLevel(_ status: EntitlementTaskState<[Product.SubscriptionInfo.Status]>, _ store: StoreSnapshot) -> Int? {
        guard let active = status.value?.first(where: { $0.state.isActive }) else { return nil }
        return store.product(active.transaction.unsafePayloadValue.productID)?.subscription?.groupLevel
    }
}

/// The Backyard Birds Pass paywall, as in the talk: custom marketing content over a full-height
/// sky, multiline button labels, a visible redeem-code button and the policies.
public struct BackyardBirdsPassShop: View {
    @State var status: EntitlementTaskState<[Product.SubscriptionInfo.Status]> = .loading

    /// A fresh Pass shop; the subscription status loads when the page renders.
    public init() {}

    /// A spinner while the Pass status loads, then the Pass store: only upgrades for a subscriber
    /// below the top level, every plan for anyone else.
    public var body: some View {
        Group {
            switch status {
            case .loading:
                ProgressView("Loading your Pass…")
            case .failure(let error):
                Text("Couldn’t load your Pass: \(error.message)")
            case .success:
                StoreReader { store, _ in
                    let showPremiumUpgrade = (PassUpgradeOffer.activeLevel(status, store) ?? 1) > 1
                    // The backend's offering, when one is served: its plans and copy (not for an upgrade).
                    let offering = showPremiumUpgrade ? nil : store.offering
                    Group {
                        if let offering, let plans = offering.productIDs(in: BackyardBirds.passGroupID, of: store) {
                            SubscriptionStoreView(productIDs: plans) {
                                PassMarketingContent(showPremiumUpgrade: false, offering: offering)
                                    .containerBackground(for: .subscriptionStoreFullHeight) { SkyBackground() }
                            }
                        } else {
                            SubscriptionStoreView(groupID: BackyardBirds.passGroupID, visibleRelationships: showPremiumUpgrade ? .upgrade : .all) {
                                PassMarketingContent(showPremiumUpgrade: showPremiumUpgrade)
                                    .containerBackground(for: .subscriptionStoreFullHeight) { SkyBackground() }
                            }
                        }
                    }
                    .backgroundStyle(.clear)
                    .subscriptionStoreButtonLabel(.multiline)
                    .subscriptionStorePickerItemBackground(.thinMaterial)
                    .storeButton(.visible, for: .redeemCode, .policies)
                    .subscriptionStoreControlIcon { _, info in
                        Image(systemName: info.groupLevel == 1 ? "crown.fill" : info.groupLevel == 2 ? "person.2.fill" : "bird.fill")
                    }
                }
            }
        }
        .subscriptionStatusTask(for: BackyardBirds.passGroupID) { status = $0 }
    }
}

struct PassMarketingContent: View {
    let showPremiumUpgrade: Bool
    /// The backend's offering: its title and subtitle replace the built-in copy.
    var offering: RemoteOffering? = nil

    var body: some View {
        VStack(alignment: .center, spacing: 8) {
            Image(systemName: "bird.fill")
            Text(offering?.title ?? (showPremiumUpgrade ? "Backyard Birds Premium" : "Backyard Birds Pass")).font(.largeTitle)
            Text(offering?.subtitle ?? (showPremiumUpgrade
                 ? "Unlock every backyard, every bird and every decoration."
                 : "A world of birds awaits: more backyards, more birds, more decorations."))
                .font(.title3)
        }
        .multilineTextAlignment(.center)
        .padding(8)
    }
}

/// A sky gradient behind the whole Pass store.
struct SkyBackground: View {
    var body: some View {
        Rectangle().fill(LinearGradient(
            colors: [Color(light: Color(hex: 0x8EC5FC), dark: Color(hex: 0x0B1D3A)), Color(light: Color(hex: 0xE0C3FC), dark: Color(hex: 0x3B2A5C))],
            startPoint: .top, endPoint: .bottom))
    }
}
