import Foundation

extension Product {
    /// `Product.SubscriptionPeriod`: a length of time in days, weeks, months or years.
    public struct SubscriptionPeriod: Hashable, Sendable {
        /// Mirrors StoreKit's `Product.SubscriptionPeriod.Unit`: the unit a period counts in.
        public enum Unit: String, Hashable, Sendable, CaseIterable {
            case day, week, month, year
        }
        /// Mirrors StoreKit's `SubscriptionPeriod.unit`: the unit that `value` counts.
        public let unit: Unit
        /// Mirrors StoreKit's `SubscriptionPeriod.value`: how many units long the period is (3 months is 3 × `.month`).
        public let value: Int
        /// A period of `value` units, e.g. `SubscriptionPeriod(value: 3, unit: .month)`.
        public init(value: Int, unit: Unit) {
            self.value = value
            self.unit = unit
        }
        /// Mirrors StoreKit's `Product.SubscriptionPeriod.weekly`: one week.
        public static let weekly = SubscriptionPeriod(value: 1, unit: .week)
        /// Mirrors StoreKit's `Product.SubscriptionPeriod.monthly`: one month.
        public static let monthly = SubscriptionPeriod(value: 1, unit: .month)
        /// Mirrors StoreKit's `Product.SubscriptionPeriod.yearly`: one year.
        public static let yearly = SubscriptionPeriod(value: 1, unit: .year)
    }

    /// `Product.SubscriptionOffer`: an introductory, promotional or win-back offer.
    public struct SubscriptionOffer: Hashable, Sendable {
        /// Mirrors StoreKit's `Product.SubscriptionOffer.OfferType`: which kind of offer this is.
        public struct OfferType: RawRepresentable, Hashable, Sendable {
            /// StoreKit's name for the offer type ("introductory", "promotional", "winBack").
            public let rawValue: String
            /// Wraps any offer type string, so one this library does not list still decodes.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Mirrors StoreKit's `OfferType.introductory`: for customers new to the subscription group.
            public static let introductory = OfferType(rawValue: "introductory")
            /// Mirrors StoreKit's `OfferType.promotional`: for existing or lapsed subscribers, signed by your server.
            public static let promotional = OfferType(rawValue: "promotional")
            /// Mirrors StoreKit's `OfferType.winBack`: for lapsed subscribers the App Store finds eligible.
            public static let winBack = OfferType(rawValue: "winBack")
        }
        /// Mirrors StoreKit's `Product.SubscriptionOffer.PaymentMode`: how the customer pays during the offer.
        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            /// StoreKit's name for the payment mode ("freeTrial", "payAsYouGo", "payUpFront").
            public let rawValue: String
            /// Wraps any payment mode string, so one this library does not list still decodes.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Mirrors StoreKit's `PaymentMode.freeTrial`: nothing to pay for the offer's periods.
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            /// Mirrors StoreKit's `PaymentMode.payAsYouGo`: the offer price each period, for `periodCount` periods.
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            /// Mirrors StoreKit's `PaymentMode.payUpFront`: the offer price once, for the whole offer.
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }
        /// Nil for introductory offers, the offer identifier otherwise.
        public let id: String?
        /// Mirrors StoreKit's `SubscriptionOffer.type`: introductory, promotional or win-back.
        public let type: OfferType
        /// Mirrors StoreKit's `SubscriptionOffer.price`: the offer price in the storefront's currency, for arithmetic.
        public let price: Decimal
        /// Mirrors StoreKit's `SubscriptionOffer.displayPrice`: `price` formatted for the storefront.
        public let displayPrice: String
        /// Mirrors StoreKit's `SubscriptionOffer.period`: the length of one offer period.
        public let period: SubscriptionPeriod
        /// Mirrors StoreKit's `SubscriptionOffer.periodCount`: how many `period`s the offer lasts.
        public let periodCount: Int
        /// Mirrors StoreKit's `SubscriptionOffer.paymentMode`: free trial, pay as you go or pay up front.
        public let paymentMode: PaymentMode

        /// `Product.SubscriptionOffer.Signature` (iOS 17.4): a promotional offer's V1 signature,
        /// as your server made it (`PromotionalOfferSignatureCreator`).
        public struct Signature: Hashable, Sendable {
            /// Mirrors StoreKit's `Signature.keyID`: the App Store Connect subscription key the offer was signed with.
            public var keyID: String
            /// Mirrors StoreKit's `Signature.nonce`: the one-time UUID included in the signed fields.
            public var nonce: UUID
            /// UNIX time in milliseconds.
            public var timestamp: Int
            /// Mirrors StoreKit's `Signature.signature`: the ECDSA signature over the offer fields.
            public var signature: Data

            /// A signature as your server returned it, to pass to `PurchaseOption.promotionalOffer(offerID:signature:)`.
            public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
                self.keyID = keyID
                self.nonce = nonce
                self.timestamp = timestamp
                self.signature = signature
            }
        }

        /// An offer as the client library builds it from the store's product listing.
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
        /// Mirrors StoreKit's `SubscriptionInfo.subscriptionGroupID`: the group this subscription belongs to;
        /// a customer holds at most one subscription per group.
        public let subscriptionGroupID: String
        /// 1 is the highest level of service in the group.
        public let groupLevel: Int
        /// Mirrors StoreKit's `SubscriptionInfo.groupDisplayName`: the group's name, localized for the storefront.
        public let groupDisplayName: String
        /// Mirrors StoreKit's `SubscriptionInfo.subscriptionPeriod`: the time between renewals.
        public let subscriptionPeriod: SubscriptionPeriod
        /// Mirrors StoreKit's `SubscriptionInfo.introductoryOffer`: the offer for customers new to the
        /// group; nil when none is configured (eligibility is asked of the store).
        public let introductoryOffer: SubscriptionOffer?
        /// Mirrors StoreKit's `SubscriptionInfo.promotionalOffers`: the offers your server can sign for existing customers.
        public let promotionalOffers: [SubscriptionOffer]
        /// Every configured win-back offer, not filtered by eligibility (as StoreKit).
        public let winBackOffers: [SubscriptionOffer]
        /// The billing plans the subscription is sold on (iOS 26.4): empty unless the catalog has
        /// `billingPlans` (e.g. "monthly with a 12-month commitment").
        public let pricingTerms: [PricingTerms]

        /// Subscription details as the client library builds them from the store's product listing.
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
        /// The signed payloads' billing plan string (`MONTHLY`, `BILLED_UPFRONT`).
        public let rawValue: String
        /// Wraps any billing plan string, so a plan this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Monthly payments with a 12-month commitment.
        public static let monthly = BillingPlanType(rawValue: "MONTHLY")
        /// The whole period paid up front.
        public static let upFront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    }
}
