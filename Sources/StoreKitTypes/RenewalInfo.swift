import Foundation

extension Product.SubscriptionInfo {
    /// `Product.SubscriptionInfo.RenewalState`, with StoreKit's raw values.
    public struct RenewalState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let subscribed = RenewalState(rawValue: 1)
        public static let expired = RenewalState(rawValue: 2)
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        public static let inGracePeriod = RenewalState(rawValue: 4)
        public static let revoked = RenewalState(rawValue: 5)

        public var description: String {
            switch self {
            case .subscribed: "subscribed"
            case .expired: "expired"
            case .inBillingRetryPeriod: "inBillingRetryPeriod"
            case .inGracePeriod: "inGracePeriod"
            case .revoked: "revoked"
            default: "RenewalState(\(rawValue))"
            }
        }
    }

    /// `Product.SubscriptionInfo.Status`: one subscription of a group and where it stands.
    public struct Status: Hashable, Sendable {
        public let state: RenewalState
        public let transaction: VerificationResult<Transaction>
        public let renewalInfo: VerificationResult<RenewalInfo>

        public init(state: RenewalState, transaction: VerificationResult<Transaction>, renewalInfo: VerificationResult<RenewalInfo>) {
            self.state = state
            self.transaction = transaction
            self.renewalInfo = renewalInfo
        }
    }

    /// `Product.SubscriptionInfo.RenewalInfo`: what happens at the next renewal, decoded from
    /// signed renewal info.
    public struct RenewalInfo: Hashable, Sendable, JWSRepresentable {
        public let originalTransactionID: UInt64
        public let currentProductID: String
        public let willAutoRenew: Bool
        public let autoRenewPreference: String?
        public let expirationReason: ExpirationReason?
        public let isInBillingRetry: Bool
        public let gracePeriodExpirationDate: Date?
        public let priceIncreaseStatus: PriceIncreaseStatus
        public let offer: Transaction.Offer?
        public let signedDate: Date
        public let environment: AppStore.Environment
        public let recentSubscriptionStartDate: Date?
        public let renewalDate: Date?
        public let renewalPrice: Decimal?
        public let currency: Locale.Currency?
        /// Best offers first; empty while in grace period or billing retry.
        public let eligibleWinBackOfferIDs: [String]
        public let appAccountToken: UUID?
        public let appTransactionID: String?
        /// The billing plan the next renewal uses (iOS 26.4).
        public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType?
        /// What happens when the current 12-month commitment ends (iOS 26.4); nil outside one.
        public let commitmentInfo: CommitmentInfo?
        public let jsonRepresentation: Data
        public let jwsRepresentation: String

        /// `RenewalInfo.ExpirationReason`, with Apple's numeric raw values.
        public struct ExpirationReason: RawRepresentable, Hashable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
            public static let billingError = ExpirationReason(rawValue: 2)
            public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
            public static let productUnavailable = ExpirationReason(rawValue: 4)
            public static let unknown = ExpirationReason(rawValue: 5)
        }

        /// `RenewalInfo.CommitmentInfo`: the renewal of a commitment, from the payload's
        /// `commitmentInfo` (member names follow the payload's; Apple's client names were not checked).
        public struct CommitmentInfo: Hashable, Sendable {
            public let autoRenewProductID: String
            public let willAutoRenew: Bool
            public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType
            public let renewalDate: Date
            public let renewalPrice: Decimal

            public init(autoRenewProductID: String, willAutoRenew: Bool, renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType,
                        renewalDate: Date, renewalPrice: Decimal) {
                self.autoRenewProductID = autoRenewProductID
                self.willAutoRenew = willAutoRenew
                self.renewalBillingPlanType = renewalBillingPlanType
                self.renewalDate = renewalDate
                self.renewalPrice = renewalPrice
            }
        }

        /// `RenewalInfo.PriceIncreaseStatus`
        public enum PriceIncreaseStatus: Hashable, Sendable {
            case noIncreasePending
            case pending
            case agreed
        }
    }
}
