/// `billingPlanType` / `renewalBillingPlanType` (App Store Server API 1.21, April 2026): how a
/// one-year subscription is billed. `MONTHLY` means "monthly with a 12-month commitment".
public enum BillingPlanType: String, Codable, Sendable {
    case billedUpfront = "BILLED_UPFRONT"
    case monthly = "MONTHLY"
}

/// `TransactionCommitmentInfo`: where one monthly billing period sits in its 12-month commitment.
/// Apple: "commitmentInfo returns the progress, price and expiration for the 12-month commitment".
public struct TransactionCommitmentInfo: Codable, Sendable, Equatable {
    /// 1 … `totalBillingPeriods` (Apple's library refuses values outside 1–12).
    public var billingPeriodNumber: Int
    /// When the commitment ends, in ms; a billing recovery shifts it.
    public var commitmentExpiresDate: Int64
    /// The price of the whole commitment, in milliunits (the catalog's `commitmentDisplayPrice`).
    public var commitmentPrice: Int64
    /// Mirrors `totalBillingPeriods`: how many billing periods the commitment has (12 for a monthly plan).
    public var totalBillingPeriods: Int

    /// A commitment position as the store builds it for a `MONTHLY` transaction.
    public init(billingPeriodNumber: Int, commitmentExpiresDate: Int64, commitmentPrice: Int64, totalBillingPeriods: Int) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}

/// `RenewalCommitmentInfo`: what happens when the current commitment ends. Apple sends it only
/// while the subscription is in a commitment.
public struct RenewalCommitmentInfo: Codable, Sendable, Equatable {
    /// Mirrors `commitmentAutoRenewProductId`: the product the commitment renews into.
    public var commitmentAutoRenewProductId: String
    /// Whether the commitment renews at its end; cancelling a commitment turns only this off.
    public var commitmentAutoRenewStatus: AutoRenewStatus
    /// Mirrors `commitmentRenewalBillingPlanType`: the billing plan the renewed commitment uses.
    public var commitmentRenewalBillingPlanType: BillingPlanType
    /// Mirrors `commitmentRenewalDate`: when the commitment renews, in ms since 1970.
    public var commitmentRenewalDate: Int64
    /// The price of the next commitment (or of the up-front year), in milliunits.
    public var commitmentRenewalPrice: Int64

    /// Commitment renewal terms as the store builds them for renewal info.
    public init(commitmentAutoRenewProductId: String, commitmentAutoRenewStatus: AutoRenewStatus,
                commitmentRenewalBillingPlanType: BillingPlanType, commitmentRenewalDate: Int64, commitmentRenewalPrice: Int64) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}

extension TransactionCommitmentInfo {
    func write(to json: inout JSONWriter) {
        json.beginObject("commitmentInfo")
        json.field("billingPeriodNumber", billingPeriodNumber)
        json.field("commitmentExpiresDate", commitmentExpiresDate)
        json.field("commitmentPrice", commitmentPrice)
        json.field("totalBillingPeriods", totalBillingPeriods)
        json.endObject()
    }

    init?(_ o: WireObject?) {
        guard let o, let number = o.int("billingPeriodNumber"), let expires = o.int64("commitmentExpiresDate") else { return nil }
        self.init(billingPeriodNumber: number, commitmentExpiresDate: expires, commitmentPrice: o.int64("commitmentPrice") ?? 0,
                  totalBillingPeriods: o.int("totalBillingPeriods") ?? 12)
    }
}

extension RenewalCommitmentInfo {
    func write(to json: inout JSONWriter) {
        json.beginObject("commitmentInfo")
        json.field("commitmentAutoRenewProductId", commitmentAutoRenewProductId)
        json.field("commitmentAutoRenewStatus", commitmentAutoRenewStatus.rawValue)
        json.field("commitmentRenewalBillingPlanType", commitmentRenewalBillingPlanType.rawValue)
        json.field("commitmentRenewalDate", commitmentRenewalDate)
        json.field("commitmentRenewalPrice", commitmentRenewalPrice)
        json.endObject()
    }
}
