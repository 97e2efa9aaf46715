import Foundation

/// StoreKit's `Transaction`: every field StoreKit shows that the store signs, decoded from a
/// signed transaction. The client library adds the sequences (`updates`, `all`,
/// `currentEntitlements`, `unfinished`), the look-ups and `finish()`.
public struct Transaction: Identifiable, Hashable, Sendable, JWSRepresentable {
    /// Mirrors StoreKit's `Transaction.id`: the unique identifier of this transaction; each renewal gets a new one.
    public let id: UInt64
    /// Mirrors StoreKit's `Transaction.originalID`: the transaction ID of the original purchase, shared
    /// by a subscription's renewals and by restores.
    public let originalID: UInt64
    /// Mirrors StoreKit's `Transaction.webOrderLineItemID`: identifies a subscription purchase event
    /// across devices, including renewals; nil for other products.
    public let webOrderLineItemID: String?
    /// Mirrors StoreKit's `Transaction.productID`: the product that was bought.
    public let productID: String
    /// Mirrors StoreKit's `Transaction.productType`: which kind of in-app purchase it was.
    public let productType: Product.ProductType
    /// Mirrors StoreKit's `Transaction.subscriptionGroupID`: the subscription's group; nil for other products.
    public let subscriptionGroupID: String?
    /// Mirrors StoreKit's `Transaction.appBundleID`: the app the purchase belongs to.
    public let appBundleID: String
    /// Mirrors StoreKit's `Transaction.appTransactionID`: the app download transaction this purchase belongs to.
    public let appTransactionID: String
    /// Mirrors StoreKit's `Transaction.purchaseDate`: when the App Store charged the customer for this
    /// purchase, restore or renewal.
    public let purchaseDate: Date
    /// Mirrors StoreKit's `Transaction.originalPurchaseDate`: the purchase date of the original transaction.
    public let originalPurchaseDate: Date
    /// Mirrors StoreKit's `Transaction.expirationDate`: when the subscription expires or renews; nil
    /// for products that do not expire.
    public let expirationDate: Date?
    /// Mirrors StoreKit's `Transaction.purchasedQuantity`: how many were bought; above 1 only for consumables.
    public let purchasedQuantity: Int
    /// Mirrors StoreKit's `Transaction.isUpgraded`: true when the customer upgraded to a higher-level
    /// subscription in the group, which replaces this one.
    public let isUpgraded: Bool
    /// Mirrors StoreKit's `Transaction.ownershipType`: bought by this customer or shared by a family member.
    public let ownershipType: OwnershipType
    /// Mirrors StoreKit's `Transaction.revocationDate`: when Apple refunded or revoked it; nil while it stands.
    public let revocationDate: Date?
    /// Mirrors StoreKit's `Transaction.revocationReason`: why Apple refunded or revoked it; nil while it stands.
    public let revocationReason: RevocationReason?
    /// Mirrors StoreKit's `Transaction.appAccountToken`: the UUID the app passed at purchase to tie
    /// it to its own account; nil when none was passed.
    public let appAccountToken: UUID?
    /// Mirrors StoreKit's `Transaction.environment`: which App Store signed the transaction.
    public let environment: AppStore.Environment
    /// Mirrors StoreKit's `Transaction.reason`: a purchase by the customer or an automatic renewal.
    public let reason: Reason
    /// Mirrors StoreKit's `Transaction.storefront`: the App Store country the purchase was made in.
    public let storefront: Storefront
    /// Mirrors StoreKit's `Transaction.offer`: the subscription offer applied to this transaction, if any.
    public let offer: Offer?
    /// What the customer paid (milliunits / 1000), in `currency`.
    public let price: Decimal?
    /// Mirrors StoreKit's `Transaction.currency`: the currency of `price`.
    public let currency: Locale.Currency?
    /// Mirrors StoreKit's `Transaction.signedDate`: when the store signed this transaction.
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
        /// The signed payload's `inAppOwnershipType` string.
        public let rawValue: String
        /// Wraps any ownership string, so one this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `OwnershipType.purchased`: the customer bought it themselves.
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// Mirrors StoreKit's `OwnershipType.familyShared`: the customer has it through Family Sharing.
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
        /// The raw string, so logs print "PURCHASED" rather than the struct.
        public var description: String { rawValue }
    }

    /// `Transaction.RevocationReason`
    public struct RevocationReason: RawRepresentable, Hashable, Sendable {
        /// The signed payload's `revocationReason` number.
        public let rawValue: Int
        /// Wraps any reason number, so one this library does not list still decodes.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `RevocationReason.other`: refunded for another reason, such as an accidental purchase.
        public static let other = RevocationReason(rawValue: 0)
        /// Mirrors StoreKit's `RevocationReason.developerIssue`: refunded over an actual or perceived issue in the app.
        public static let developerIssue = RevocationReason(rawValue: 1)
    }

    /// `Transaction.Reason`: a purchase (or restore, upgrade) or a renewal.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The signed payload's `transactionReason` string.
        public let rawValue: String
        /// Wraps any reason string, so one this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `Transaction.Reason.purchase`: the customer bought, restored or upgraded.
        public static let purchase = Reason(rawValue: "PURCHASE")
        /// Mirrors StoreKit's `Transaction.Reason.renewal`: the App Store renewed a subscription automatically.
        public static let renewal = Reason(rawValue: "RENEWAL")
        /// The raw string, so logs print "PURCHASE" rather than the struct.
        public var description: String { rawValue }
    }

    /// `Transaction.OfferType`, with Apple's numeric raw values.
    public struct OfferType: RawRepresentable, Hashable, Sendable {
        /// The signed payload's `offerType` number (1–4).
        public let rawValue: Int
        /// Wraps any offer type number, so one this library does not list still decodes.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `Transaction.OfferType.introductory`: an introductory offer.
        public static let introductory = OfferType(rawValue: 1)
        /// Mirrors StoreKit's `Transaction.OfferType.promotional`: a promotional offer signed by your server.
        public static let promotional = OfferType(rawValue: 2)
        /// Mirrors StoreKit's `Transaction.OfferType.code`: an offer code the customer redeemed.
        public static let code = OfferType(rawValue: 3)
        /// Mirrors StoreKit's `Transaction.OfferType.winBack`: a win-back offer.
        public static let winBack = OfferType(rawValue: 4)
    }

    /// `Transaction.Offer`: the offer a transaction was bought or renewed with.
    public struct Offer: Hashable, Sendable {
        /// Mirrors StoreKit's `Transaction.Offer.PaymentMode`: how the customer pays during the offer.
        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            /// The signed payload's `offerDiscountType` string.
            public let rawValue: String
            /// Wraps any payment mode string, so one this library does not list still decodes.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Mirrors StoreKit's `Offer.PaymentMode.freeTrial`: nothing to pay during the offer.
            public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
            /// Mirrors StoreKit's `Offer.PaymentMode.payAsYouGo`: a reduced price each period of the offer.
            public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
            /// Mirrors StoreKit's `Offer.PaymentMode.payUpFront`: a reduced price paid once for the whole offer.
            public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
            /// Mirrors StoreKit's `Offer.PaymentMode.oneTime`: a one-time purchase offer on a consumable,
            /// non-consumable or non-renewing subscription.
            public static let oneTime = PaymentMode(rawValue: "ONE_TIME")
        }
        /// Mirrors StoreKit's `Transaction.Offer.id`: the offer identifier; nil when the payload has none
        /// (introductory offers).
        public let id: String?
        /// Mirrors StoreKit's `Transaction.Offer.type`: introductory, promotional, offer code or win-back.
        public let type: OfferType
        /// Mirrors StoreKit's `Transaction.Offer.paymentMode`: how the offer is paid; nil when the payload has none.
        public let paymentMode: PaymentMode?
        /// Mirrors StoreKit's `Transaction.Offer.period`: how long the offer lasts; nil when the payload has none.
        public let period: Product.SubscriptionPeriod?

        /// An offer as decoding a transaction or renewal payload builds it.
        public init(id: String?, type: OfferType, paymentMode: PaymentMode?, period: Product.SubscriptionPeriod?) {
            self.id = id
            self.type = type
            self.paymentMode = paymentMode
            self.period = period
        }
    }
}
