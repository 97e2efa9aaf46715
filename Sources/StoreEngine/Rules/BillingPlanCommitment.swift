import Foundation
import StoreModel

/// Monthly subscriptions with a 12-month commitment (iOS 26.4, App Store Server API 1.21), as
/// Apple's "Managing the life cycle of monthly subscriptions with a 12-month commitment" states:
/// a one-year subscription billed in 12 monthly periods, each a `DID_RENEW`; cancelling turns off
/// only the commitment's renewal (`commitmentAutoRenewStatus` 0) while `autoRenewStatus` stays 1
/// and billing continues; after the 12th period the commitment renews (period 1 of a new one) or
/// the subscription expires; no billing grace period; a billing recovery shifts
/// `commitmentExpiresDate` by the time spent in billing retry.
public enum BillingPlanCommitment {
    /// Periods in a commitment ("12-month commitment").
    public static let totalPeriods = 12
    static let month = SubscriptionPeriod(unit: .month, value: 1)

    /// The commitment a purchase asks for with `billingPlanType`: nil for `BILLED_UPFRONT` (or
    /// none), the product's enabled `MONTHLY` plan otherwise. Apple offers the plan on one-year
    /// subscriptions only.
    public static func plan(_ type: String?, for product: CatalogProduct) throws -> BillingPlan? {
        guard let type else { return nil }
        guard let planType = BillingPlanType(rawValue: type) else {
            throw StoreError.malformedRequest("billingPlanType must be BILLED_UPFRONT or MONTHLY, not \(type)")
        }
        guard planType == .monthly else { return nil }
        guard let subscription = product.subscription, subscription.period == SubscriptionPeriod(unit: .year, value: 1),
              let plan = subscription.billingPlans.first(where: { $0.type == "MONTHLY" && $0.isEnabled }), plan.price != nil
        else {
            throw StoreError.productUnavailable("\(product.id) has no enabled MONTHLY billing plan (a one-year subscription with billingPlans)")
        }
        return plan
    }

    /// Whether the product offers a commitment plan at all: then its up-front purchases say
    /// `BILLED_UPFRONT`, so a server can tell the two plans apart.
    public static func offersPlans(_ product: CatalogProduct) -> Bool {
        product.subscription?.billingPlans.contains { $0.type == "MONTHLY" && $0.isEnabled } ?? false
    }

    /// A new commitment starting at `startMs`.
    public static func start(_ plan: BillingPlan, storefront: Storefront, startMs: Int64, rate: TimeRate) -> SubscriptionChain.Commitment {
        let monthly = storefront.milliunits(plan.price ?? 0)
        let total = plan.commitmentPrice.map { storefront.milliunits($0) } ?? monthly * Int64(totalPeriods)
        return SubscriptionChain.Commitment(
            periodNumber: 1, totalPeriods: totalPeriods,
            expiresMs: RenewalSchedule.end(of: month, count: totalPeriods, startingAt: startMs, rate: rate),
            priceMilliunits: total, monthlyPriceMilliunits: monthly, autoRenew: true)
    }

    /// When the current billing period ends: a month later, the last one exactly at the commitment's end.
    public static func periodEnd(_ commitment: SubscriptionChain.Commitment, startMs: Int64, rate: TimeRate) -> Int64 {
        if commitment.periodNumber >= commitment.totalPeriods { return max(commitment.expiresMs, startMs + 1) }
        return min(RenewalSchedule.end(of: month, startingAt: startMs, rate: rate), commitment.expiresMs)
    }

    /// The commitment for the period after the current one: the next month of it, or period 1
    /// of a renewed commitment; nil when the commitment ends without renewing.
    public static func next(after commitment: SubscriptionChain.Commitment, periodStartMs: Int64, rate: TimeRate) -> SubscriptionChain.Commitment? {
        var next = commitment
        if commitment.periodNumber < commitment.totalPeriods {
            next.periodNumber += 1
            return next
        }
        guard commitment.autoRenew else { return nil }
        next.periodNumber = 1
        next.expiresMs = RenewalSchedule.end(of: month, count: commitment.totalPeriods, startingAt: periodStartMs, rate: rate)
        return next
    }

    /// Whether the period now ending is the last the customer is committed to and nothing renews it.
    public static func endsWithoutRenewal(_ commitment: SubscriptionChain.Commitment) -> Bool {
        commitment.periodNumber >= commitment.totalPeriods && !commitment.autoRenew
    }

    /// The transaction's commitment fields: the billing period's number out of the total, and the
    /// commitment's end date and price.
    public static func transactionInfo(_ commitment: SubscriptionChain.Commitment) -> TransactionCommitmentInfo {
        TransactionCommitmentInfo(
            billingPeriodNumber: commitment.periodNumber, commitmentExpiresDate: commitment.expiresMs,
            commitmentPrice: commitment.priceMilliunits, totalBillingPeriods: commitment.totalPeriods)
    }

    /// The renewal side, present only while the subscription is in a commitment.
    public static func renewalInfo(_ chain: SubscriptionChain) -> RenewalCommitmentInfo? {
        guard let commitment = chain.commitment, chain.state != .expired, chain.state != .revoked else { return nil }
        return RenewalCommitmentInfo(
            commitmentAutoRenewProductId: chain.autoRenewProductId,
            commitmentAutoRenewStatus: commitment.autoRenew ? .on : .off,
            commitmentRenewalBillingPlanType: .monthly,
            commitmentRenewalDate: commitment.expiresMs,
            commitmentRenewalPrice: commitment.priceMilliunits)
    }
}
