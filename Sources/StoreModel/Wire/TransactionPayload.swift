/// `JWSTransactionDecodedPayload`, field for field (reference §4.1). IDs are strings, dates are
/// integer milliseconds since 1970, `appAppleId`-style numbers are integers. Optional fields are
/// left out of the JSON when nil, as Apple does.
public struct TransactionPayload: Codable, Sendable, Equatable {
    public var originalTransactionId: String
    public var transactionId: String
    public var webOrderLineItemId: String?
    public var bundleId: String
    public var productId: String
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Int64
    public var originalPurchaseDate: Int64
    public var expiresDate: Int64?
    public var quantity: Int
    public var type: TransactionType
    public var appAccountToken: String?
    public var inAppOwnershipType: InAppOwnershipType
    public var signedDate: Int64
    public var revocationReason: RevocationReason?
    public var revocationDate: Int64?
    public var isUpgraded: Bool?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var environment: StoreEnvironment
    public var storefront: String
    public var storefrontId: String
    public var transactionReason: TransactionReason
    public var currency: String
    public var price: Int64
    public var offerDiscountType: OfferDiscountType?
    public var appTransactionId: String
    public var offerPeriod: String?
    public var revocationType: RevocationType?
    public var revocationPercentage: Int?
    /// Only on subscriptions whose product offers billing plans (API 1.21).
    public var billingPlanType: BillingPlanType?
    /// Only for `MONTHLY` (a monthly period of a 12-month commitment).
    public var commitmentInfo: TransactionCommitmentInfo?

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
