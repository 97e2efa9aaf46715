import Foundation

extension Product.SubscriptionInfo {
    /// `Product.SubscriptionInfo.RenewalState`, with StoreKit's raw values.
    public struct RenewalState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// StoreKit's numeric state, the same numbers as the App Store Server API's subscription `status`.
        public let rawValue: Int
        /// Wraps any state number, so a state this library does not list still decodes.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `RenewalState.subscribed`: the customer has access and the subscription is active.
        public static let subscribed = RenewalState(rawValue: 1)
        /// Mirrors StoreKit's `RenewalState.expired`: the subscription ended and gives no access.
        public static let expired = RenewalState(rawValue: 2)
        /// Mirrors StoreKit's `RenewalState.inBillingRetryPeriod`: renewal failed on billing and Apple is
        /// still trying to collect payment.
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        /// Mirrors StoreKit's `RenewalState.inGracePeriod`: renewal failed on billing but the customer
        /// keeps access while Apple retries.
        public static let inGracePeriod = RenewalState(rawValue: 4)
        /// Mirrors StoreKit's `RenewalState.revoked`: Apple refunded it or revoked it from Family Sharing.
        public static let revoked = RenewalState(rawValue: 5)

        /// The state's case name, or the raw number for one this library does not know.
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
        /// Mirrors StoreKit's `Status.state`: where the subscription stands, the value to gate access on.
        public let state: RenewalState
        /// Mirrors StoreKit's `Status.transaction`: the latest signed transaction of the subscription.
        public let transaction: VerificationResult<Transaction>
        /// Mirrors StoreKit's `Status.renewalInfo`: the signed renewal info saying what happens next.
        public let renewalInfo: VerificationResult<RenewalInfo>

        /// A status as the client library builds it from the store's answer.
        public init(state: RenewalState, transaction: VerificationResult<Transaction>, renewalInfo: VerificationResult<RenewalInfo>) {
            self.state = state
            self.transaction = transaction
            self.renewalInfo = renewalInfo
        }
    }

    /// `Product.SubscriptionInfo.RenewalInfo`: what happens at the next renewal, decoded from
    /// signed renewal info.
    public struct RenewalInfo: Hashable, Sendable, JWSRepresentable {
        /// Mirrors StoreKit's `RenewalInfo.originalTransactionID`: the transaction ID of the original
        /// purchase, which ties renewal info to the subscription's transactions.
        public let originalTransactionID: UInt64
        /// Mirrors StoreKit's `RenewalInfo.currentProductID`: the product the customer is subscribed to now.
        public let currentProductID: String
        /// Mirrors StoreKit's `RenewalInfo.willAutoRenew`: false once the customer turned auto-renew off.
        public let willAutoRenew: Bool
        /// Mirrors StoreKit's `RenewalInfo.autoRenewPreference`: the product that renews next, which
        /// differs from `currentProductID` after a downgrade or crossgrade takes effect at renewal.
        public let autoRenewPreference: String?
        /// Mirrors StoreKit's `RenewalInfo.expirationReason`: why the subscription expired; nil while it is active.
        public let expirationReason: ExpirationReason?
        /// Mirrors StoreKit's `RenewalInfo.isInBillingRetry`: whether Apple is still trying to renew after a billing failure.
        public let isInBillingRetry: Bool
        /// Mirrors StoreKit's `RenewalInfo.gracePeriodExpirationDate`: when the billing grace period ends;
        /// nil outside one.
        public let gracePeriodExpirationDate: Date?
        /// Mirrors StoreKit's `RenewalInfo.priceIncreaseStatus`: whether a price increase awaits the customer's answer.
        public let priceIncreaseStatus: PriceIncreaseStatus
        /// Mirrors StoreKit's `RenewalInfo.offer`: the offer that applies at the next renewal, if any.
        public let offer: Transaction.Offer?
        /// Mirrors StoreKit's `RenewalInfo.signedDate`: when the store signed this renewal info.
        public let signedDate: Date
        /// Mirrors StoreKit's `RenewalInfo.environment`: which App Store signed it.
        public let environment: AppStore.Environment
        /// Mirrors StoreKit's `RenewalInfo.recentSubscriptionStartDate`: the start of the customer's
        /// current run of paid service, ignoring lapses of 60 days or less.
        public let recentSubscriptionStartDate: Date?
        /// Mirrors StoreKit's `RenewalInfo.renewalDate`: when the next renewal is due.
        public let renewalDate: Date?
        /// Mirrors StoreKit's `RenewalInfo.renewalPrice`: what the next renewal charges, in `currency`,
        /// with any offer's discount applied (the payload's milliunits / 1000).
        public let renewalPrice: Decimal?
        /// Mirrors StoreKit's `RenewalInfo.currency`: the currency of `renewalPrice`.
        public let currency: Locale.Currency?
        /// Best offers first; empty while in grace period or billing retry.
        public let eligibleWinBackOfferIDs: [String]
        /// Mirrors StoreKit's `RenewalInfo.appAccountToken`: the UUID the app passed at purchase to tie
        /// the subscription to its own account.
        public let appAccountToken: UUID?
        /// Mirrors StoreKit's `RenewalInfo.appTransactionID`: the app download transaction this subscription belongs to.
        public let appTransactionID: String?
        /// The billing plan the next renewal uses (iOS 26.4).
        public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType?
        /// What happens when the current 12-month commitment ends (iOS 26.4); nil outside one.
        public let commitmentInfo: CommitmentInfo?
        /// Mirrors StoreKit's `RenewalInfo.jsonRepresentation`: the signed payload, as JSON.
        public let jsonRepresentation: Data
        /// The compact JWS this renewal info was decoded from, for a server to verify again.
        public let jwsRepresentation: String

        /// `RenewalInfo.ExpirationReason`, with Apple's numeric raw values.
        public struct ExpirationReason: RawRepresentable, Hashable, Sendable {
            /// The payload's `expirationIntent` number (1–5).
            public let rawValue: Int
            /// Wraps any reason number, so one this library does not list still decodes.
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// Mirrors StoreKit's `ExpirationReason.autoRenewDisabled`: the customer turned auto-renew off.
            public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
            /// Mirrors StoreKit's `ExpirationReason.billingError`: the payment failed.
            public static let billingError = ExpirationReason(rawValue: 2)
            /// Mirrors StoreKit's `ExpirationReason.didNotConsentToPriceIncrease`: the customer did not agree to a price increase.
            public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
            /// Mirrors StoreKit's `ExpirationReason.productUnavailable`: the product was not for sale at renewal.
            public static let productUnavailable = ExpirationReason(rawValue: 4)
            /// Mirrors StoreKit's `ExpirationReason.unknown`: the subscription expired for some other reason.
            public static let unknown = ExpirationReason(rawValue: 5)
        }

        /// `RenewalInfo.CommitmentInfo`: the renewal of a commitment, from the payload's
        /// `commitmentInfo` (member names follow the payload's; Apple's client names were not checked).
        public struct CommitmentInfo: Hashable, Sendable {
            /// The product the commitment renews into (payload `commitmentAutoRenewProductId`).
            public let autoRenewProductID: String
            /// Whether the commitment renews when it ends (payload `commitmentAutoRenewStatus` is on).
            public let willAutoRenew: Bool
            /// The billing plan the renewed commitment uses (payload `commitmentRenewalBillingPlanType`).
            public let renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType
            /// When the commitment renews (payload `commitmentRenewalDate`).
            public let renewalDate: Date
            /// What the renewed commitment costs (payload `commitmentRenewalPrice`, milliunits / 1000).
            public let renewalPrice: Decimal

            /// Commitment renewal terms, as decoding a renewal payload builds them.
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
