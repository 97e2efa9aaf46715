import Foundation

/// An in-app purchase as StoreKit's `Product` describes it to one storefront: localized texts,
/// the price in the storefront's currency, and for subscriptions the group, level and offers.
public struct Product: Sendable, Identifiable, Hashable {
    public typealias ID = String

    public struct ProductType: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let consumable = ProductType(rawValue: "Consumable")
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        public static let nonRenewable = ProductType(rawValue: "Non-Renewable")
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable")
    }

    public let id: ID
    public let type: ProductType
    public let displayName: String
    public let description: String
    public let price: Decimal
    /// The price formatted for the storefront ("$4.99", "4,99 €").
    public let displayPrice: String
    public let priceFormat: PriceFormat
    public let isFamilyShareable: Bool
    public let subscription: SubscriptionInfo?

    public init(id: ID, type: ProductType, displayName: String, description: String, price: Decimal, displayPrice: String,
                priceFormat: PriceFormat, isFamilyShareable: Bool = false, subscription: SubscriptionInfo? = nil) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.priceFormat = priceFormat
        self.isFamilyShareable = isFamilyShareable
        self.subscription = subscription
    }

    /// The currency and locale prices are formatted with: what `priceFormatStyle` is on a device.
    public struct PriceFormat: Sendable, Hashable {
        public let currencyCode: String
        public let locale: String
        public init(currencyCode: String, locale: String) {
            self.currencyCode = currencyCode
            self.locale = locale
        }
    }

    public struct SubscriptionPeriod: Sendable, Hashable {
        public enum Unit: String, Sendable, CaseIterable { case day, week, month, year }
        public let unit: Unit
        public let value: Int
        public init(value: Int, unit: Unit) {
            self.value = value
            self.unit = unit
        }
        public static let weekly = SubscriptionPeriod(value: 1, unit: .week)
        public static let monthly = SubscriptionPeriod(value: 1, unit: .month)
        public static let yearly = SubscriptionPeriod(value: 1, unit: .year)
    }

    public struct SubscriptionOffer: Sendable, Hashable {
        public enum OfferType: String, Sendable { case introductory, promotional, winBack }
        public enum PaymentMode: String, Sendable { case freeTrial, payAsYouGo, payUpFront }
        public let id: String?
        public let type: OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: PaymentMode
        public init(id: String?, type: OfferType, price: Decimal, displayPrice: String, period: SubscriptionPeriod,
                    periodCount: Int, paymentMode: PaymentMode) {
            self.id = id
            self.type = type
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
            self.periodCount = periodCount
            self.paymentMode = paymentMode
        }
    }

    public struct SubscriptionInfo: Sendable, Hashable {
        public let subscriptionGroupID: String
        /// 1 is the highest level of service in the group.
        public let groupLevel: Int
        public let groupDisplayName: String
        public let subscriptionPeriod: SubscriptionPeriod
        public let introductoryOffer: SubscriptionOffer?
        public let promotionalOffers: [SubscriptionOffer]
        public let winBackOffers: [SubscriptionOffer]
        public init(subscriptionGroupID: String, groupLevel: Int, groupDisplayName: String, subscriptionPeriod: SubscriptionPeriod,
                    introductoryOffer: SubscriptionOffer? = nil, promotionalOffers: [SubscriptionOffer] = [],
                    winBackOffers: [SubscriptionOffer] = []) {
            self.subscriptionGroupID = subscriptionGroupID
            self.groupLevel = groupLevel
            self.groupDisplayName = groupDisplayName
            self.subscriptionPeriod = subscriptionPeriod
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.winBackOffers = winBackOffers
        }
    }

    /// What a purchase ended in, as `Product.PurchaseResult`.
    public enum PurchaseResult: Sendable {
        case success(VerificationResult<Transaction>)
        case userCancelled
        case pending
    }
}
