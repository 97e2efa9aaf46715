import Foundation
import OpenStoreKit

/// StoreKitTest's purchase options for `SKTestSession.buyProduct(identifier:options:)`.
extension Product.PurchaseOption {
    /// A promotional offer from the `.storekit` file, without the signature a real purchase needs.
    public static func promotionalOffer(id: String) -> Product.PurchaseOption {
        .custom(key: TestingOptionKey.promotionalOffer, value: id)
    }

    /// An offer-code offer from the `.storekit` file, as if the customer redeemed one of its codes.
    public static func codeOffer(referenceName: String) -> Product.PurchaseOption {
        .custom(key: TestingOptionKey.codeOffer, value: referenceName)
    }

    /// Dates the purchase at `date` (now or in the past; a future date is refused). An
    /// auto-renewable subscription then renews from that date up to now (`.renewUntilNow`), or
    /// has auto-renew off and ends after its first period (`.cancelImmediately`); either way the
    /// session applies every period in between before `buyProduct` returns.
    public static func purchaseDate(_ date: Date, renewalBehavior: Product.PurchaseOption.SubscriptionRenewalBehavior = .renewUntilNow) -> Product.PurchaseOption {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        return .custom(key: renewalBehavior == .cancelImmediately ? TestingOptionKey.purchaseDateCancelling : TestingOptionKey.purchaseDate, value: Double(ms))
    }

    /// Renewal options for an auto-renewable subscription bought with `purchaseDate(_:renewalBehavior:)`.
    public enum SubscriptionRenewalBehavior: Hashable, Sendable {
        /// One period only: the subscription is cancelled (auto-renew off) at purchase.
        case cancelImmediately
        /// Renews continuously from the purchase date, up to the current date.
        case renewUntilNow
    }
}

/// The custom keys that carry the testing-only options (a client purchase ignores custom keys).
enum TestingOptionKey {
    static let promotionalOffer = "com.openstorekit.StoreKitTest.promotionalOffer"
    static let codeOffer = "com.openstorekit.StoreKitTest.codeOffer"
    static let purchaseDate = "com.openstorekit.StoreKitTest.purchaseDate"
    static let purchaseDateCancelling = "com.openstorekit.StoreKitTest.purchaseDate.cancelImmediately"
}
