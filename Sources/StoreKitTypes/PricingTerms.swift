import Foundation

extension Product.SubscriptionInfo {
    /// `Product.SubscriptionInfo.BillingPeriod` (iOS 26.4): how often a billing plan charges.
    public typealias BillingPeriod = Product.SubscriptionPeriod

    /// `Product.SubscriptionInfo.PricingTerms` (iOS 26.4's shape): one billing plan of a
    /// subscription, what it charges how often, the commitment that adds up to, and its offers.
    /// Buy on it with `PurchaseOption.billingPlanType(_:)`.
    public struct PricingTerms: Hashable, Sendable {
        public let billingPlanType: Product.SubscriptionInfo.BillingPlanType
        public let billingPeriod: Product.SubscriptionInfo.BillingPeriod
        /// Charged every `billingPeriod`.
        public let billingPrice: Decimal
        public let billingDisplayPrice: String
        /// The whole commitment: its total price and length.
        public let commitmentInfo: Product.SubscriptionInfo.CommitmentInfo
        /// The introductory offers of this plan.
        public let subscriptionOffers: [Product.SubscriptionOffer]

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
        public let price: Decimal
        public let displayPrice: String
        public let period: Product.SubscriptionPeriod

        public init(price: Decimal, displayPrice: String, period: Product.SubscriptionPeriod) {
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
        }
    }
}
