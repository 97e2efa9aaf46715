import Foundation

/// StoreKit's `Transaction`: every field StoreKit shows that the store signs, decoded from a
/// signed transaction. The client library adds the sequences (`updates`, `all`,
/// `currentEntitlements`, `unfinished`), the look-ups and `finish()`.
public struct Transaction: Identifiable, Hashable, Sendable, JWSRepresentable {
    public let id: UInt64
    public let originalID: UInt64
    public let webOrderLineItemID: String?
    public let productID: String
    public let productType: Product.ProductType
    public let subscriptionGroupID: String?
    public let appBundleID: String
    public let appTransactionID: String
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    public let expirationDate: Date?
    public let purchasedQuantity: Int
    public let isUpgraded: Bool
    public let ownershipType: OwnershipType
    public let revocationDate: Date?
    public let revocationReason: RevocationReason?
    public let appAccountToken: UUID?
    public let environment: AppStore.Environment
    public let reason: Reason
    public let storefront: Storefront
    public let offer: Offer?
    /// What the customer paid (milliunits / 1000), in `currency`.
    public let price: Decimal?
    public let currency: Locale.Currency?
    public let signedDate: Date
    /// How it was refunded or revoked (iOS 26.4); nil while it stands.
    public let revocationType: RevocationType?
    /// The share refunded or revoked, 0.0–100.0 (the payload's milliunits / 1000); nil unless refunded.
    public let revocationPercentage: Decimal?
    /// The billing plan of a subscription with a commitment (iOS 26.4).
    public let billingPlanType: Product.SubscriptionInfo.BillingPlanType?
    /// Where this billing period sits in its 12-month commitment (iOS 26.4), for `.monthly` plans.
    public let commitmentInfo: CommitmentInfo?
    /// The signed payload, as JSON.
    public let jsonRepresentation: Data
    /// The compact JWS this transaction was decoded from.
    public let jwsRepresentation: String

    /// `Transaction.OwnershipType`
    public struct OwnershipType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
        public var description: String { rawValue }
    }

    /// `Transaction.RevocationReason`
    public struct RevocationReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let other = RevocationReason(rawValue: 0)
        public static let developerIssue = RevocationReason(rawValue: 1)
    }

    /// `Transaction.Reason`: a purchase (or restore, upgrade) or a renewal.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchase = Reason(rawValue: "PURCHASE")
        public static let renewal = Reason(rawValue: "RENEWAL")
        public var description: String { rawValue }
    }

    /// `Transaction.OfferType`, with Apple's numeric raw values.
    public struct OfferType: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let introductory = OfferType(rawValue: 1)
        public static let promotional = OfferType(rawValue: 2)
        public static let code = OfferType(rawValue: 3)
        public static let winBack = OfferType(rawValue: 4)
    }

    /// `Transaction.Offer`: the offer a transaction was bought or renewed with.
    public struct Offer: Hashable, Sendable {
        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
            public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
            public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
            public static let oneTime = PaymentMode(rawValue: "ONE_TIME")
        }
        public let id: String?
        public let type: OfferType
        public let paymentMode: PaymentMode?
        public let period: Product.SubscriptionPeriod?

        public init(id: String?, type: OfferType, paymentMode: PaymentMode?, period: Product.SubscriptionPeriod?) {
            self.id = id
            self.type = type
            self.paymentMode = paymentMode
            self.period = period
        }
    }
}
