import Foundation

/// A 2026 billing plan of a subscription (`billingPlans[]`), e.g. "monthly with a 12-month
/// commitment". Kept so files that use them load; optional for the engine.
public struct BillingPlan: Sendable, Equatable {
    /// `billingPlanType`: `BILLED_UPFRONT` or `MONTHLY`.
    public var type: String
    /// `displayPrice`: the price billed each time.
    public var price: Decimal?
    /// `commitmentDisplayPrice`: the total over the commitment.
    public var commitmentPrice: Decimal?
    /// `internalID`: App Store Connect's ID for the plan in a synced file; not used for pricing.
    public var internalID: String?
    /// `isEnabled`: a disabled plan stays in the file but is left out of product listings and
    /// commitment purchases.
    public var isEnabled: Bool

    /// A plan as a catalog file gives it; enabled unless the file says otherwise.
    public init(type: String, price: Decimal? = nil, commitmentPrice: Decimal? = nil, internalID: String? = nil, isEnabled: Bool = true) {
        self.type = type
        self.price = price
        self.commitmentPrice = commitmentPrice
        self.internalID = internalID
        self.isEnabled = isEnabled
    }
}
