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

    open var productIdentifier: String { product?.id ?? "" }
    open var localizedTitle: String { product?.displayName ?? "" }
    open var localizedDescription: String { product?.description ?? "" }
    open var price: NSDecimalNumber { NSDecimalNumber(decimal: product?.price ?? 0) }
    /// The storefront's locale with its currency (`en_US@currency=USD`).
    open var priceLocale: Locale {
        guard let product else { return Locale(identifier: "en_US@currency=USD") }
        return Self.locale(product.priceLocaleIdentifier, currency: product.currencyCode)
    }
    open var isFamilyShareable: Bool { product?.isFamilyShareable ?? false }
    /// Hosted content was retired by Apple; no product here has any.
    open var isDownloadable: Bool { false }
    open var downloadContentLengths: [NSNumber] { [] }
    open var contentVersion: String { "" }
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
    open var subscriptionGroupIdentifier: String? { product?.subscription?.subscriptionGroupID }

    open override var description: String { "<SKProduct \(productIdentifier) \(localizedTitle) \(price)>" }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SKProduct else { return false }
        return other === self || (product != nil && other.product == product)
    }

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
