import Foundation
import OpenStoreKit

/// An introductory offer (`type == .introductory`, from `SKProduct.introductoryPrice`) or a
/// promotional offer (`type == .subscription`, from `SKProduct.discounts`, with its `identifier`
/// to put in an `SKPaymentDiscount`).
open class SKProductDiscount: NSObject, @unchecked Sendable {
    /// How the customer pays during the offer, with Apple's raw values.
    public enum PaymentMode: UInt, Sendable, Hashable {
        case payAsYouGo = 0
        case payUpFront = 1
        case freeTrial = 2
    }

    /// Which kind of offer, with Apple's raw values.
    public enum `Type`: UInt, Sendable, Hashable {
        case introductory = 0
        case subscription = 1
    }

    /// Mirrors StoreKit's `SKProductDiscount.price`: the offer's price, in the currency of `priceLocale`.
    open var price: NSDecimalNumber { NSDecimalNumber(decimal: offer?.price ?? 0) }
    /// Mirrors StoreKit's `SKProductDiscount.priceLocale`: the product's storefront locale, with its currency.
    open var priceLocale: Locale { storedLocale }
    /// The offer's identifier; nil for an introductory offer.
    open var identifier: String? { offer?.type == .introductory ? nil : offer?.id }
    /// Mirrors StoreKit's `SKProductDiscount.subscriptionPeriod`: the length of one offer period.
    open var subscriptionPeriod: SKProductSubscriptionPeriod {
        offer.map { SKProductSubscriptionPeriod($0.period) } ?? SKProductSubscriptionPeriod()
    }
    /// Mirrors StoreKit's `SKProductDiscount.numberOfPeriods`: how many `subscriptionPeriod`s the offer lasts.
    open var numberOfPeriods: Int { offer?.periodCount ?? 0 }
    /// Mirrors StoreKit's `SKProductDiscount.paymentMode`: free trial, pay as you go or pay up front.
    open var paymentMode: PaymentMode {
        switch offer?.paymentMode {
        case .some(.freeTrial): .freeTrial
        case .some(.payUpFront): .payUpFront
        default: .payAsYouGo
        }
    }
    /// Mirrors StoreKit's `SKProductDiscount.type`: introductory, or `.subscription` for a promotional offer.
    open var type: `Type` { offer?.type == .introductory ? .introductory : .subscription }

    private let offer: Product.SubscriptionOffer?
    private let storedLocale: Locale

    init(_ offer: Product.SubscriptionOffer, of product: Product) {
        self.offer = offer
        storedLocale = SKProduct.locale(product.priceLocaleIdentifier, currency: product.currencyCode)
        super.init()
    }

    /// An empty discount, as `SKProductDiscount()` is on Apple platforms (tests subclass it).
    public override init() {
        offer = nil
        storedLocale = Locale(identifier: "en_US@currency=USD")
        super.init()
    }
}
