/// `JWSRenewalInfoDecodedPayload` (reference §4.2): what will happen at the next renewal.
public struct RenewalInfoPayload: Codable, Sendable, Equatable {
    /// Mirrors `originalTransactionId`: the transaction ID of the subscription's original purchase.
    public var originalTransactionId: String
    /// Mirrors `autoRenewProductId`: the product that renews at the next billing period.
    public var autoRenewProductId: String
    /// Mirrors `productId`: the product the customer is subscribed to now.
    public var productId: String
    /// Mirrors `autoRenewStatus`: whether the subscription renews at the end of the period.
    public var autoRenewStatus: AutoRenewStatus
    /// Mirrors `expirationIntent`: why the subscription expired; absent while it is active.
    public var expirationIntent: ExpirationIntent?
    /// Mirrors `isInBillingRetryPeriod`: whether the App Store is still trying to renew after a billing failure.
    public var isInBillingRetryPeriod: Bool?
    /// Mirrors `priceIncreaseStatus`: whether a price increase awaits the customer's consent; absent without one.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// Mirrors `gracePeriodExpiresDate`: when the billing grace period ends, in ms since 1970.
    public var gracePeriodExpiresDate: Int64?
    /// Mirrors `offerType`: the kind of offer that applies at the next renewal.
    public var offerType: OfferType?
    /// Mirrors `offerIdentifier`: the offer code or promotional offer identifier of that offer.
    public var offerIdentifier: String?
    /// Mirrors `offerDiscountType`: how that offer is paid.
    public var offerDiscountType: OfferDiscountType?
    /// Mirrors `offerPeriod`: how long that offer lasts, as an ISO 8601 duration.
    public var offerPeriod: String?
    /// Mirrors `signedDate`: when the store signed the payload, in ms since 1970.
    public var signedDate: Int64
    /// Mirrors `environment`: which App Store signed it.
    public var environment: StoreEnvironment
    /// Mirrors `recentSubscriptionStartDate`: the start of the current run of paid service, ignoring
    /// lapses of 60 days or less, in ms since 1970.
    public var recentSubscriptionStartDate: Int64?
    /// Mirrors `renewalDate`: when the most recent subscription purchase expires, in ms since 1970.
    public var renewalDate: Int64?
    /// Mirrors `currency`: the ISO 4217 currency of `renewalPrice`.
    public var currency: String?
    /// Mirrors `renewalPrice`: what the next renewal charges, in milliunits.
    public var renewalPrice: Int64?
    /// Mirrors `eligibleWinBackOfferIds`: the win-back offers the customer may redeem, best first.
    public var eligibleWinBackOfferIds: [String]?
    /// Mirrors `appAccountToken`: the UUID the app passed at purchase, as text.
    public var appAccountToken: String?
    /// Mirrors `appTransactionId`: the app download transaction this subscription belongs to.
    public var appTransactionId: String?
    /// The billing plan of the next renewal, and the commitment's own renewal: only while the
    /// subscription is in a 12-month commitment (API 1.21).
    public var renewalBillingPlanType: BillingPlanType?
    /// Mirrors `commitmentInfo`: what happens when the current 12-month commitment ends.
    public var commitmentInfo: RenewalCommitmentInfo?

    /// A payload as the store builds it before signing; optional fields default to absent.
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
