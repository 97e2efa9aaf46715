import Foundation

/// A subscription offer of any kind (introductory, promotional, offer code, win-back), with the
/// wire values the engine needs already derived, so every consumer computes them the same way.
public struct CatalogOffer: Sendable, Equatable {
    /// Which list the offer came from: decides who may redeem it and `offerType`.
    public var kind: OfferKind
    /// `internalID`: App Store Connect's ID in a synced file; also matches a code offer when redeeming by name.
    public var internalID: String?
    /// `offerID` for promotional and win-back offers (the identifier apps pass); nil otherwise.
    public var id: String?
    /// For code offers, the name testing APIs use to redeem (`codeOffer(referenceName:)`).
    public var referenceName: String?
    /// `paymentMode`: free trial, pay as you go or pay up front; decides `discountType`.
    public var paymentMode: PaymentMode
    /// `subscriptionPeriod`: the length of one offer period.
    public var period: SubscriptionPeriod
    /// `numberOfPeriods`; 1 when absent.
    public var periodCount: Int
    /// `displayPrice`: per period for pay-as-you-go, for the whole offer for pay-up-front; nil for free trials.
    public var price: Decimal?
    /// For code offers, a subset of `new`, `existing`, `expired`; empty for other kinds.
    public var eligibility: [String]
    /// `isStackable` as the file gives it; nil when absent. Kept so the file round-trips.
    public var isStackable: Bool?
    /// `BILLED_UPFRONT` or `MONTHLY` in 2026 files.
    public var billingPlanType: String?
    /// The wire `offerDiscountType` of transactions bought with this offer, derived from `paymentMode`.
    public var discountType: OfferDiscountType
    /// The wire `offerType` of transactions bought with this offer, derived from `kind`.
    public var offerType: OfferType
    /// How long the offer lasts in total: `period` × `periodCount` (P1M × 3 = P3M).
    public var totalDuration: SubscriptionPeriod

    /// An offer as the parser or a test builds it; the wire values and `totalDuration` are derived here.
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
