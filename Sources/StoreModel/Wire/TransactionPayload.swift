/// `JWSTransactionDecodedPayload`, field for field (reference §4.1). IDs are strings, dates are
/// integer milliseconds since 1970, `appAppleId`-style numbers are integers. Optional fields are
/// left out of the JSON when nil, as Apple does.
public struct TransactionPayload: Codable, Sendable, Equatable {
    /// Mirrors `originalTransactionId`: the transaction ID of the original purchase, shared by renewals and restores.
    public var originalTransactionId: String
    /// Mirrors `transactionId`: the unique identifier of this transaction.
    public var transactionId: String
    /// Mirrors `webOrderLineItemId`: identifies a subscription purchase event across devices; subscriptions only.
    public var webOrderLineItemId: String?
    /// Mirrors `bundleId`: the app the purchase belongs to.
    public var bundleId: String
    /// Mirrors `productId`: the product that was bought.
    public var productId: String
    /// Mirrors `subscriptionGroupIdentifier`: the subscription's group; absent for other products.
    public var subscriptionGroupIdentifier: String?
    /// Mirrors `purchaseDate`: when the App Store charged the customer, in ms since 1970.
    public var purchaseDate: Int64
    /// Mirrors `originalPurchaseDate`: the purchase date of the original transaction, in ms since 1970.
    public var originalPurchaseDate: Int64
    /// Mirrors `expiresDate`: when the subscription expires or renews, in ms since 1970.
    public var expiresDate: Int64?
    /// Mirrors `quantity`: how many consumables were bought.
    public var quantity: Int
    /// Mirrors `type`: which kind of in-app purchase it was.
    public var type: TransactionType
    /// Mirrors `appAccountToken`: the UUID the app passed at purchase, as text.
    public var appAccountToken: String?
    /// Mirrors `inAppOwnershipType`: bought by the customer or shared through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType
    /// Mirrors `signedDate`: when the store signed the payload, in ms since 1970.
    public var signedDate: Int64
    /// Mirrors `revocationReason`: why Apple refunded or revoked it; absent while it stands.
    public var revocationReason: RevocationReason?
    /// Mirrors `revocationDate`: when Apple refunded or revoked it, in ms since 1970.
    public var revocationDate: Int64?
    /// Mirrors `isUpgraded`: the customer upgraded to another subscription in the group.
    public var isUpgraded: Bool?
    /// Mirrors `offerType`: the kind of offer the transaction was bought with.
    public var offerType: OfferType?
    /// Mirrors `offerIdentifier`: the offer code or promotional offer identifier.
    public var offerIdentifier: String?
    /// Mirrors `environment`: which App Store signed it.
    public var environment: StoreEnvironment
    /// Mirrors `storefront`: the ISO 3166-1 alpha-3 code of the purchase's storefront.
    public var storefront: String
    /// Mirrors `storefrontId`: Apple's identifier of the purchase's storefront.
    public var storefrontId: String
    /// Mirrors `transactionReason`: a purchase by the customer or an automatic renewal.
    public var transactionReason: TransactionReason
    /// Mirrors `currency`: the ISO 4217 currency of `price`.
    public var currency: String
    /// Mirrors `price`: what the customer paid, in milliunits.
    public var price: Int64
    /// Mirrors `offerDiscountType`: how the offer was paid.
    public var offerDiscountType: OfferDiscountType?
    /// Mirrors `appTransactionId`: the app download transaction this purchase belongs to.
    public var appTransactionId: String
    /// Mirrors `offerPeriod`: how long the offer lasts, as an ISO 8601 duration.
    public var offerPeriod: String?
    /// Mirrors `revocationType`: full or prorated refund, or Family Sharing revocation.
    public var revocationType: RevocationType?
    /// Mirrors `revocationPercentage`: the share refunded, in milliunits of a percent (50000 = 50%).
    public var revocationPercentage: Int?
    /// Only on subscriptions whose product offers billing plans (API 1.21).
    public var billingPlanType: BillingPlanType?
    /// Only for `MONTHLY` (a monthly period of a 12-month commitment).
    public var commitmentInfo: TransactionCommitmentInfo?

    /// A payload as the store builds it before signing; optional fields default to absent.
    public init(
        originalTransactionId: String, transactionId: String, webOrderLineItemId: String? = nil,
        bundleId: String, productId: String, subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Int64, originalPurchaseDate: Int64, expiresDate: Int64? = nil, quantity: Int = 1,
        type: TransactionType, appAccountToken: String? = nil, inAppOwnershipType: InAppOwnershipType = .purchased,
        signedDate: Int64, revocationReason: RevocationReason? = nil, revocationDate: Int64? = nil,
        isUpgraded: Bool? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil,
        environment: StoreEnvironment, storefront: String, storefrontId: String,
        transactionReason: TransactionReason = .purchase, currency: String, price: Int64,
        offerDiscountType: OfferDiscountType? = nil, appTransactionId: String, offerPeriod: String? = nil,
        revocationType: RevocationType? = nil, revocationPercentage: Int? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
    }
}
