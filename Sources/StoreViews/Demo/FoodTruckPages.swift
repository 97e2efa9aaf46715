import Foundation
import StoreKitTypes

/// The Food Truck app's store: the annual sales history, Social Feed+, and a subscription status
/// panel in the style of Apphud's article ("active until …", "expired at …", "not purchased").
public enum FoodTruck {
    /// The demo catalog's app; the Food Truck pages sell from it.
    public static let bundleId = "com.example.foodtruck"
    /// The Social Feed+ subscription group, sold on the Food Truck page.
    public static let socialFeedGroupID = "F7E50C1A"
    /// The annual sales history purchase; it shows as unlocked for customers who first bought the
    /// app before 8.0.
    public static let annualHistory = "com.example.foodtruck.annualhistory"
    /// The monthly Social Feed+ plan, the reference for the yearly plan's savings.
    public static let socialFeedMonthly = "com.example.foodtruck.socialfeedplus.monthly"
    /// The yearly Social Feed+ plan, whose savings over monthly the marketing content states.
    public static let socialFeedYearly = "com.example.foodtruck.socialfeedplus.yearly"
    /// Sales history became a purchase in 8.0; customers who bought the app before keep it.
    public static let paidHistorySince = [8, 0]

    /// Whether `version` ("7.2", "8.0.1") is older than 8.0.
    static func predatesPaidHistory(_ version: String) -> Bool {
        let parts = version.split(separator: ".").map { Int($0) ?? 0 }
        for (index, floor) in paidHistorySince.enumerated() {
            let part = index < parts.count ? parts[index] : 0
            if part != floor { return part < floor }
        }
        return false
    }
}

/// The Food Truck page: the Social Feed+ status panel, the sales history offer and the Social Feed+ store.
public struct FoodTruckStore: View {
    @State var socialFeed: EntitlementTaskState<[Product.SubscriptionInfo.Status]> = .loading

    /// A fresh page; the Social Feed+ status loads when it renders.
    public init() {}

    /// The page's sections, with the status task that feeds the panel.
    public var body: some View {
        VStack(alignment: .leading, spacing: 20) {
            Text("Food Truck").font(.largeTitle)
            SocialFeedStatusPanel(state: socialFeed)
            Text("Annual Sales History").font(.title2)
            SalesHistoryOffer()
            Text("Social Feed+").font(.title2)
            StoreReader { store, _ in
                // The backend's offering, when one is served: its Social Feed+ plans and copy.
                let offering = store.offering
                Group {
                    if let offering, let plans = offering.productIDs(in: FoodTruck.socialFeedGroupID, of: store) {
                        SubscriptionStoreView(productIDs: plans) { SocialFeedMarketing(offering: offering) }
                    } else {
                        SubscriptionStoreView(groupID: FoodTruck.socialFeedGroupID) { SocialFeedMarketing(offering: nil) }
                    }
                }
            }
            .subscriptionStoreControlStyle(.prominentPicker)
            .storeButton(.visible, for: .restorePurchases, .policies)
        }
        .subscriptionStatusTask(for: FoodTruck.socialFeedGroupID) { socialFeed = $0 }
    }
}

/// The yearly plan's saving over twelve monthly payments ("Save 16%"), from the catalog's prices.
struct YearlySavings: View {
    var body: some View {
        StoreReader { store, _ in
            if let yearly = store.product(FoodTruck.socialFeedYearly), let monthly = store.product(FoodTruck.socialFeedMonthly),
               let savings = PriceText.savings(yearly, over: monthly) {
                Text("Save \(savings.percent)% with the yearly plan: \(savings.displayAmount) less than paying monthly.")
                    .font(.headline)
                    .cssClass("ft-yearly-savings")
            }
        }
    }
}

/// The sales history: unlocked by an original purchase before 8.0 (App Transaction), otherwise a
/// one-product StoreView.
struct SalesHistoryOffer: View {
    var body: some View {
        StoreReader { store, _ in
            if let app = store.appTransaction, FoodTruck.predatesPaidHistory(app.originalAppVersion) {
                VStack(alignment: .leading, spacing: 4) {
                    Text("✓ Unlocked").font(.headline).foregroundStyle(Color.green)
                    Text("Included with your original purchase of Food Truck \(app.originalAppVersion).")
                }
                .cssClass("sk-panel ft-history-unlocked")
            } else {
                StoreView(ids: [FoodTruck.annualHistory]) { _ in Image(systemName: "chart.bar.fill") }
                    .productIconBorder()
            }
        }
    }
}

/// "Subscription active until …" / "expired at …" / "not purchased", with restore, terms and Not Now.
struct SocialFeedStatusPanel: View {
    let state: EntitlementTaskState<[Product.SubscriptionInfo.Status]>

    var body: some View {
        StoreReader { store, environment in
            VStack(alignment: .leading, spacing: 8) {
                Text("Social Feed+ status").font(.headline)
                Text(Self.summary(state, store)).cssClass("ft-status-text")
                HStack(spacing: 12) {
                    RestorePurchasesButton()
                    Link("Terms of Service", destination: store.termsOfServiceURL ?? "#")
                    Button("Not Now", role: .cancel) { environment.dismiss() }
                }
            }
            .cssClass("sk-panel ft-status")
        }
    }

    static func summary(_ state: EntitlementTaskState<[Product.SubscriptionInfo.Status]>, _ store: StoreSnapshot) -> String {
        switch state {
        case .loading: return "Checking your subscription…"
        case .failure(let error): return "Couldn’t check your subscription: \(error.message)"
        case .success(let statuses):
            guard let status = statuses.first(where: { $0.state.isActive }) ?? statuses.first else { return "Not purchased" }
            let transaction = status.transaction.unsafePayloadValue
            let name = store.product(transaction.productID)?.displayName ?? transaction.productID
            let date = transaction.revocationDate ?? transaction.expirationDate
            let when = date.map(format) ?? "unknown date"
            switch status.state {
            case .subscribed: return "\(name): subscription active until \(when)"
            case .inGracePeriod: return "\(name): billing problem — active in grace period until \(when)"
            case .inBillingRetryPeriod: return "\(name): billing problem — expired at \(when), retrying"
            case .revoked: return "\(name): refunded — revoked at \(when)"
            default: return "\(name): expired at \(when)"
            }
        }
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, locale: Locale(identifier: "en_US"),
                                        timeZone: TimeZone(identifier: "UTC")!)) + " UTC"
    }
}

/// Social Feed+'s marketing content; an offering's title and subtitle replace the built-in copy.
struct SocialFeedMarketing: View {
    let offering: RemoteOffering?

    var body: some View {
        VStack(alignment: .center, spacing: 6) {
            Image(systemName: "bubble.left.and.bubble.right.fill")
            Text(offering?.title ?? "Social Feed+").font(.title)
            Text(offering?.subtitle ?? "See what everyone is saying about your truck, and reply from anywhere.")
            YearlySavings()
        }
        .multilineTextAlignment(.center)
    }
}
