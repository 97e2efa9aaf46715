import Foundation
import StoreKitTypes

/// The Apphud article's paywall ("SwiftUI and auto-renewable subscriptions", its `PurchaseView`)
/// as a store page: "Get Premium Membership", a purchase button per subscription, the article's
/// status line per product ("Subscription active: … until: …", "Subscription expired: … at: …",
/// "Subscription not purchased: …"), "Restore purchases", the terms, and "Not now". It sells
/// `Tests/Fixtures/storekit1.storekit`, so it is listed when the store serves that catalog as
/// `com.example.paywall`, the app of the command-line example (`apphud-paywall-example`).
public enum Paywall {
    /// The command-line example's app; the paywall page is listed when the store sells it.
    public static let bundleId = "com.example.paywall"
    /// The subscription group of `storekit1.storekit` that the paywall sells.
    public static let groupID = "PG"
}

/// The paywall page: heading, a subscribe button per plan, Restore and policies, then status lines.
public struct PaywallPage: View {
    /// A fresh paywall page.
    public init() {}

    /// The article's layout, built from `SubscriptionStoreView` with a button per plan.
    public var body: some View {
        VStack(alignment: .center, spacing: 16) {
            Text("Get Premium Membership").font(.largeTitle)
            Text("Choose one of the packages above").font(.subheadline)
            SubscriptionStoreView(groupID: Paywall.groupID) {
                VStack(alignment: .center, spacing: 4) {
                    Text("• Unlimited searches")
                    Text("• 100GB downloads")
                    Text("• Multiplatform service")
                }
            }
            .subscriptionStoreControlStyle(.buttons)
            .storeButton(.visible, for: .restorePurchases, .policies)
            PaywallStatusLines()
        }
    }
}

/// One status line per subscription of the group, as the article's `ContentView` lists them,
/// judged on the store's clock; then "Not now".
struct PaywallStatusLines: View {
    var body: some View {
        StoreReader { store, environment in
            VStack(alignment: .leading, spacing: 6) {
                for product in store.products where product.subscription?.subscriptionGroupID == Paywall.groupID {
                    Text(Self.line(product, store)).cssClass("pw-status")
                }
                Button("Not now", role: .cancel) { environment.dismiss() }
            }
            .cssClass("sk-panel pw-statuses")
        }
    }

    /// The article's wording: the latest expiry of the product's subscription transactions.
    static func line(_ product: Product, _ store: StoreSnapshot) -> String {
        let expiries = (store.subscriptionStatuses[Paywall.groupID] ?? [])
            .map(\.transaction.unsafePayloadValue)
            .filter { $0.productID == product.id }
            .compactMap { $0.revocationDate ?? $0.expirationDate }
        guard let expiry = expiries.max() else { return "Subscription not purchased: \(product.displayName)" }
        let when = expiry.formatted(Date.FormatStyle(date: .abbreviated, time: .standard, locale: Locale(identifier: "en_US"),
                                                     timeZone: TimeZone(identifier: "UTC")!))
        return store.now > expiry ? "Subscription expired: \(product.displayName) at: \(when)"
            : "Subscription active: \(product.displayName) until:\(when)"
    }
}
