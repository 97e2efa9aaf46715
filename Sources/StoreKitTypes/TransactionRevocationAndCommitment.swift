import Foundation

extension Transaction {
    /// `Transaction.RevocationType` (iOS 26.4): a full or prorated refund, or a Family Sharing
    /// revocation. Raw values are the signed payload's.
    public struct RevocationType: RawRepresentable, Hashable, Sendable {
        /// The signed payload's `revocationType` string.
        public let rawValue: String
        /// Wraps any revocation type string, so one this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `RevocationType.fullRefund`: the whole price was refunded.
        public static let fullRefund = RevocationType(rawValue: "REFUND_FULL")
        /// Mirrors StoreKit's `RevocationType.proratedRefund`: part of the price was refunded (see `revocationPercentage`).
        public static let proratedRefund = RevocationType(rawValue: "REFUND_PRORATED")
        /// Mirrors StoreKit's `RevocationType.familyRevocation`: access through Family Sharing was taken away.
        public static let familyRevocation = RevocationType(rawValue: "FAMILY_REVOKE")
    }

    /// `revocationTypeStringRepresentation`: the raw revocation type, nil while it stands.
    public var revocationTypeStringRepresentation: String? { revocationType?.rawValue }

    /// `Transaction.CommitmentInfo` (iOS 26.4): one monthly billing period of a 12-month commitment.
    public struct CommitmentInfo: Hashable, Sendable {
        /// Which billing period of the commitment this is (1-based).
        public let billingPeriodNumber: UInt64
        /// Mirrors StoreKit's `CommitmentInfo.totalBillingPeriods`: how many billing periods the commitment has.
        public let totalBillingPeriods: UInt64
        /// When the commitment ends.
        public let expirationDate: Date
        /// The price of the whole commitment.
        public let price: Decimal

        /// Commitment details as decoding a transaction payload builds them.
        public init(billingPeriodNumber: UInt64, totalBillingPeriods: UInt64, expirationDate: Date, price: Decimal) {
            self.billingPeriodNumber = billingPeriodNumber
            self.totalBillingPeriods = totalBillingPeriods
            self.expirationDate = expirationDate
            self.price = price
        }
    }
}
