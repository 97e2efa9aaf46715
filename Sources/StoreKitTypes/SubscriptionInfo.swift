import Foundation

extension Product {
    /// `Product.SubscriptionPeriod`: a length of time in days, weeks, months or years.
    public struct SubscriptionPeriod: Hashable, Sendable {
        public enum Unit: String, Hashable, Sendable, CaseIterable {
            case day, week, month, year
        }
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

    /// `Product.SubscriptionOffer`: an introductory, promotional or win-back offer.
    public struct SubscriptionOffer: Hashable, Sendable {
        public struct OfferType: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let introductory = OfferType(rawValue: "introductory")
            public static let promotional = OfferType(rawValue: "promotional")
            public static let winBack = OfferType(rawValue: "winBack")
        }
        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }
        /// Nil for introductory offers, the offer identifier otherwise.
        public let id: String?
        public let type: OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: PaymentMode

        /// `Product.SubscriptionOffer.Signature` (iOS 17.4): a promotional offer's V1 signature,
        /// as your server made it (`PromotionalOfferSignatureCreator`).
        public struct Signature: Hashable, Sendable {
            public var keyID: String
            public var nonce: UUID
            /// UNIX time in milliseconds.
            public var timestamp: Int
            public var signature: Data

            public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
                self.keyID = keyID
                self.nonce = nonce
                self.timestamp = timestamp
                self.signature = signature
            }
        }

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

    /// `Product.SubscriptionInfo`: the group, level, period and offers of a subscription.
    /// Eligibility and status are asked of the store (client library).
    public struct SubscriptionInfo: Hashable, Sendable {
        public let subscriptionGroupID: String
        /// 1 is the highest level of service in the group.
        public let groupLevel: Int
        public let groupDisplayName: String
        public let subscriptionPeriod: SubscriptionPeriod
        public let introductoryOffer: SubscriptionOffer?
        public let promotionalOffers: [SubscriptionOffer]
        /// Every configured win-back offer, not filtered by eligibility (as StoreKit).
        public let winBackOffers: [SubscriptionOffer]
        /// The billing plans the subscription is sold on (iOS 26.4): empty unless the catalog has
        /// `billingPlans` (e.g. "monthly with a 12-month commitment").
        public let pricingTerms: [PricingTerms]

        public init(subscriptionGroupID: String, groupLevel: Int, groupDisplayName: String, subscriptionPeriod: SubscriptionPeriod,
                    introductoryOffer: SubscriptionOffer? = nil, promotionalOffers: [SubscriptionOffer] = [],
                    winBackOffers: [SubscriptionOffer] = [], pricingTerms: [PricingTerms] = []) {
            self.pricingTerms = pricingTerms
            self.subscriptionGroupID = subscriptionGroupID
            self.groupLevel = groupLevel
            self.groupDisplayName = groupDisplayName
            self.subscriptionPeriod = subscriptionPeriod
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.winBackOffers = winBackOffers
        }
    }
}

extension Product.SubscriptionInfo {
    /// `Product.SubscriptionInfo.BillingPlanType` (iOS 26.4): how a subscription with a
    /// commitment is billed. Raw values are the signed payloads' (`MONTHLY`, `BILLED_UPFRONT`).
    public struct BillingPlanType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Monthly payments with a 12-month commitment.
        public static let monthly = BillingPlanType(rawValue: "MONTHLY")
        /// The whole period paid up front.
        public static let upFront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    }
}
