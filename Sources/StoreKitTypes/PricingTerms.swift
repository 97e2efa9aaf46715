import Foundation

extension Product.SubscriptionInfo {
    /// `Product.SubscriptionInfo.BillingPeriod` (iOS 26.4): how often a billing plan charges.
    public typealias BillingPeriod = Product.SubscriptionPeriod

    /// `Product.SubscriptionInfo.PricingTerms` (iOS 26.4's shape): one billing plan of a
    /// subscription, what it charges how often, the commitment that adds up to, and its offers.
    /// Buy on it with `PurchaseOption.billingPlanType(_:)`.
    public struct PricingTerms: Hashable, Sendable {
        /// Mirrors StoreKit's `PricingTerms.billingPlanType`: the plan to pass to
        /// `PurchaseOption.billingPlanType(_:)` to buy on these terms.
        public let billingPlanType: Product.SubscriptionInfo.BillingPlanType
        /// Mirrors StoreKit's `PricingTerms.billingPeriod`: how often `billingPrice` is charged.
        public let billingPeriod: Product.SubscriptionInfo.BillingPeriod
        /// Charged every `billingPeriod`.
        public let billingPrice: Decimal
        /// Mirrors StoreKit's `PricingTerms.billingDisplayPrice`: `billingPrice` formatted for the storefront.
        public let billingDisplayPrice: String
        /// The whole commitment: its total price and length.
        public let commitmentInfo: Product.SubscriptionInfo.CommitmentInfo
        /// The introductory offers of this plan.
        public let subscriptionOffers: [Product.SubscriptionOffer]

        /// Terms as the client library builds them from the store's product listing.
        public init(billingPlanType: Product.SubscriptionInfo.BillingPlanType, billingPeriod: Product.SubscriptionInfo.BillingPeriod,
                    billingPrice: Decimal, billingDisplayPrice: String, commitmentInfo: Product.SubscriptionInfo.CommitmentInfo,
                    subscriptionOffers: [Product.SubscriptionOffer] = []) {
            self.billingPlanType = billingPlanType
            self.billingPeriod = billingPeriod
            self.billingPrice = billingPrice
            self.billingDisplayPrice = billingDisplayPrice
            self.commitmentInfo = commitmentInfo
            self.subscriptionOffers = subscriptionOffers
        }

        /// The plan's offers of one type.
        public subscript(offers type: Product.SubscriptionOffer.OfferType) -> [Product.SubscriptionOffer] {
            subscriptionOffers.filter { $0.type == type }
        }
    }

    /// `Product.SubscriptionInfo.CommitmentInfo` (iOS 26.4): what a billing plan's commitment
    /// adds up to.
    public struct CommitmentInfo: Hashable, Sendable {
        /// Mirrors StoreKit's `CommitmentInfo.price`: the total the customer commits to pay.
        public let price: Decimal
        /// Mirrors StoreKit's `CommitmentInfo.displayPrice`: `price` formatted for the storefront.
        public let displayPrice: String
        /// Mirrors StoreKit's `CommitmentInfo.period`: how long the commitment lasts.
        public let period: Product.SubscriptionPeriod

        /// Commitment terms as the client library builds them from the store's product listing.
        public init(price: Decimal, displayPrice: String, period: Product.SubscriptionPeriod) {
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
        }
    }
}
