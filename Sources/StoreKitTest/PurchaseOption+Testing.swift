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
}

/// The custom keys that carry the testing-only options (a client purchase ignores custom keys).
enum TestingOptionKey {
    static let promotionalOffer = "com.openstorekit.StoreKitTest.promotionalOffer"
    static let codeOffer = "com.openstorekit.StoreKitTest.codeOffer"
}
