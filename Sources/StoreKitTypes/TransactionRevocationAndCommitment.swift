import Foundation

extension Transaction {
    /// `Transaction.RevocationType` (iOS 26.4): a full or prorated refund, or a Family Sharing
    /// revocation. Raw values are the signed payload's.
    public struct RevocationType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let fullRefund = RevocationType(rawValue: "REFUND_FULL")
        public static let proratedRefund = RevocationType(rawValue: "REFUND_PRORATED")
        public static let familyRevocation = RevocationType(rawValue: "FAMILY_REVOKE")
    }

    /// `revocationTypeStringRepresentation`: the raw revocation type, nil while it stands.
    public var revocationTypeStringRepresentation: String? { revocationType?.rawValue }

    /// `Transaction.CommitmentInfo` (iOS 26.4): one monthly billing period of a 12-month commitment.
    public struct CommitmentInfo: Hashable, Sendable {
        /// Which billing period of the commitment this is (1-based).
        public let billingPeriodNumber: UInt64
        public let totalBillingPeriods: UInt64
        /// When the commitment ends.
        public let expirationDate: Date
        /// The price of the whole commitment.
        public let price: Decimal

        public init(billingPeriodNumber: UInt64, totalBillingPeriods: UInt64, expirationDate: Date, price: Decimal) {
            self.billingPeriodNumber = billingPeriodNumber
            self.totalBillingPeriods = totalBillingPeriods
            self.expirationDate = expirationDate
            self.price = price
        }
    }
}
