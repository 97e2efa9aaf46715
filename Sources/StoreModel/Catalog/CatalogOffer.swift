import Foundation

/// A subscription offer of any kind (introductory, promotional, offer code, win-back), with the
/// wire values the engine needs already derived, so every consumer computes them the same way.
public struct CatalogOffer: Sendable, Equatable {
    public var kind: OfferKind
    public var internalID: String?
    /// `offerID` for promotional and win-back offers (the identifier apps pass); nil otherwise.
    public var id: String?
    /// For code offers, the name testing APIs use to redeem (`codeOffer(referenceName:)`).
    public var referenceName: String?
    public var paymentMode: PaymentMode
    /// `subscriptionPeriod`: the length of one offer period.
    public var period: SubscriptionPeriod
    /// `numberOfPeriods`; 1 when absent.
    public var periodCount: Int
    /// `displayPrice`: per period for pay-as-you-go, for the whole offer for pay-up-front; nil for free trials.
    public var price: Decimal?
    /// For code offers, a subset of `new`, `existing`, `expired`; empty for other kinds.
    public var eligibility: [String]
    public var isStackable: Bool?
    /// `BILLED_UPFRONT` or `MONTHLY` in 2026 files.
    public var billingPlanType: String?
    public var discountType: OfferDiscountType
    public var offerType: OfferType
    /// How long the offer lasts in total: `period` × `periodCount` (P1M × 3 = P3M).
    public var totalDuration: SubscriptionPeriod

    public init(
        kind: OfferKind, internalID: String? = nil, id: String? = nil, referenceName: String? = nil,
        paymentMode: PaymentMode, period: SubscriptionPeriod, periodCount: Int = 1, price: Decimal? = nil,
        eligibility: [String] = [], isStackable: Bool? = nil, billingPlanType: String? = nil
    ) {
        self.kind = kind
        self.internalID = internalID
        self.id = id
        self.referenceName = referenceName
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.eligibility = eligibility
        self.isStackable = isStackable
        self.billingPlanType = billingPlanType
        self.discountType = paymentMode.discountType
        self.offerType = kind.offerType
        self.totalDuration = period.multiplied(by: periodCount)
    }
}
