import Foundation
import OpenStoreKit

/// A product the store sells, as StoreKit 1 describes it: the StoreKit 2 `Product` it was made
/// from, in StoreKit 1's names and Foundation types (`NSDecimalNumber`, a price `Locale` that
/// carries the currency, so a `NumberFormatter` with `.currency` formats it as the storefront does).
open class SKProduct: NSObject, @unchecked Sendable {
    /// The StoreKit 2 product behind this one (nil for an `SKProduct()` made by app code).
    public let product: Product?

    /// An empty product, as `SKProduct()` is on Apple platforms (tests subclass it).
    public override init() {
        product = nil
        super.init()
    }

    /// StoreKit 1's view of a StoreKit 2 product.
    public init(_ product: Product) {
        self.product = product
        super.init()
    }

    /// Mirrors StoreKit's `SKProduct.productIdentifier`: the ID to put in an `SKPayment`; empty for `SKProduct()`.
    open var productIdentifier: String { product?.id ?? "" }
    /// Mirrors StoreKit's `SKProduct.localizedTitle`: the product's display name in the storefront's language.
    open var localizedTitle: String { product?.displayName ?? "" }
    /// Mirrors StoreKit's `SKProduct.localizedDescription`: the product's description in the storefront's language.
    open var localizedDescription: String { product?.description ?? "" }
    /// Mirrors StoreKit's `SKProduct.price`: the price in the currency of `priceLocale`.
    open var price: NSDecimalNumber { NSDecimalNumber(decimal: product?.price ?? 0) }
    /// The storefront's locale with its currency (`en_US@currency=USD`).
    open var priceLocale: Locale {
        guard let product else { return Locale(identifier: "en_US@currency=USD") }
        return Self.locale(product.priceLocaleIdentifier, currency: product.currencyCode)
    }
    /// Mirrors StoreKit's `SKProduct.isFamilyShareable`: whether family members get it through Family Sharing.
    open var isFamilyShareable: Bool { product?.isFamilyShareable ?? false }
    /// Hosted content was retired by Apple; no product here has any.
    open var isDownloadable: Bool { false }
    /// Mirrors StoreKit's `SKProduct.downloadContentLengths`: always empty here.
    open var downloadContentLengths: [NSNumber] { [] }
    /// Mirrors StoreKit's `SKProduct.contentVersion`: always empty here.
    open var contentVersion: String { "" }
    /// Mirrors StoreKit's `SKProduct.downloadContentVersion`: always empty here.
    open var downloadContentVersion: String { "" }
    /// The renewal period of an auto-renewable subscription; nil for other products.
    open var subscriptionPeriod: SKProductSubscriptionPeriod? {
        product?.subscription.map { SKProductSubscriptionPeriod($0.subscriptionPeriod) }
    }
    /// The introductory offer of an auto-renewable subscription, if it has one.
    open var introductoryPrice: SKProductDiscount? {
        guard let product, let offer = product.subscription?.introductoryOffer else { return nil }
        return SKProductDiscount(offer, of: product)
    }
    /// The promotional offers (`type == .subscription`), in catalog order.
    open var discounts: [SKProductDiscount] {
        guard let product else { return [] }
        return (product.subscription?.promotionalOffers ?? []).map { SKProductDiscount($0, of: product) }
    }
    /// Mirrors StoreKit's `SKProduct.subscriptionGroupIdentifier`: the subscription's group; nil for other products.
    open var subscriptionGroupIdentifier: String? { product?.subscription?.subscriptionGroupID }

    /// The identifier, title and price, for logs.
    open override var description: String { "<SKProduct \(productIdentifier) \(localizedTitle) \(price)>" }

    /// Equal when the same object or made from the same StoreKit 2 product.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SKProduct else { return false }
        return other === self || (product != nil && other.product == product)
    }

    /// Hashes the StoreKit 2 product (or the object for `SKProduct()`), to agree with `isEqual(_:)`.
    open override var hash: Int { product?.hashValue ?? ObjectIdentifier(self).hashValue }

    static func locale(_ identifier: String, currency: String) -> Locale {
        Locale(identifier: identifier.contains("@") ? identifier : "\(identifier)@currency=\(currency)")
    }

    /// StoreKit 1's period units, with Apple's raw values.
    public enum PeriodUnit: UInt, Sendable, Hashable {
        case day = 0
        case week = 1
        case month = 2
        case year = 3
    }
}
