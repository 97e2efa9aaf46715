/// `JWSRenewalInfoDecodedPayload` (reference §4.2): what will happen at the next renewal.
public struct RenewalInfoPayload: Codable, Sendable, Equatable {
    public var originalTransactionId: String
    public var autoRenewProductId: String
    public var productId: String
    public var autoRenewStatus: AutoRenewStatus
    public var expirationIntent: ExpirationIntent?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    public var gracePeriodExpiresDate: Int64?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var offerDiscountType: OfferDiscountType?
    public var offerPeriod: String?
    public var signedDate: Int64
    public var environment: StoreEnvironment
    public var recentSubscriptionStartDate: Int64?
    public var renewalDate: Int64?
    public var currency: String?
    public var renewalPrice: Int64?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: String?
    public var appTransactionId: String?
    /// The billing plan of the next renewal, and the commitment's own renewal: only while the
    /// subscription is in a 12-month commitment (API 1.21).
    public var renewalBillingPlanType: BillingPlanType?
    public var commitmentInfo: RenewalCommitmentInfo?

    public init(
        originalTransactionId: String, autoRenewProductId: String, productId: String,
        autoRenewStatus: AutoRenewStatus, expirationIntent: ExpirationIntent? = nil,
        isInBillingRetryPeriod: Bool? = nil, priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Int64? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil,
        offerDiscountType: OfferDiscountType? = nil, offerPeriod: String? = nil, signedDate: Int64,
        environment: StoreEnvironment, recentSubscriptionStartDate: Int64? = nil, renewalDate: Int64? = nil,
        currency: String? = nil, renewalPrice: Int64? = nil, eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: String? = nil, appTransactionId: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.expirationIntent = expirationIntent
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.offerDiscountType = offerDiscountType
        self.offerPeriod = offerPeriod
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
    }
}
