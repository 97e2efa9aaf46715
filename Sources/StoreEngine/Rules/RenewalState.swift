import StoreModel

/// What the store remembers about a subscription chain between renewals. Renewal info is a view
/// of it; issue-3 lifecycle rules (billing retry, grace, price increase) extend it.
public struct RenewalState: Codable, Sendable, Equatable {
    public var productId: String
    public var autoRenewProductId: String
    public var autoRenewStatus: AutoRenewStatus
    public var expiresMs: Int64
    public var recentSubscriptionStartMs: Int64
    public var currency: String
    /// The price the next renewal will charge, in milliunits.
    public var renewalPriceMilliunits: Int64
    public var appAccountToken: String?
    public var appTransactionId: String
    public var expirationIntent: ExpirationIntent?

    public init(
        productId: String, autoRenewProductId: String, autoRenewStatus: AutoRenewStatus, expiresMs: Int64,
        recentSubscriptionStartMs: Int64, currency: String, renewalPriceMilliunits: Int64,
        appAccountToken: String?, appTransactionId: String, expirationIntent: ExpirationIntent? = nil
    ) {
        self.productId = productId
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.expiresMs = expiresMs
        self.recentSubscriptionStartMs = recentSubscriptionStartMs
        self.currency = currency
        self.renewalPriceMilliunits = renewalPriceMilliunits
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.expirationIntent = expirationIntent
    }

    /// The state right after a first purchase: auto-renew on, renewing into the same product at
    /// its regular price when the first period ends.
    public static func afterFirstPurchase(_ transaction: TransactionPayload, regularPriceMilliunits: Int64) -> RenewalState {
        RenewalState(
            productId: transaction.productId, autoRenewProductId: transaction.productId, autoRenewStatus: .on,
            expiresMs: transaction.expiresDate ?? transaction.purchaseDate,
            recentSubscriptionStartMs: transaction.purchaseDate, currency: transaction.currency,
            renewalPriceMilliunits: regularPriceMilliunits, appAccountToken: transaction.appAccountToken,
            appTransactionId: transaction.appTransactionId)
    }

    /// `JWSRenewalInfoDecodedPayload` as of `nowMs`.
    public func renewalInfo(originalTransactionId: String, environment: StoreEnvironment, nowMs: Int64) -> RenewalInfoPayload {
        RenewalInfoPayload(
            originalTransactionId: originalTransactionId,
            autoRenewProductId: autoRenewProductId,
            productId: productId,
            autoRenewStatus: autoRenewStatus,
            expirationIntent: expirationIntent,
            isInBillingRetryPeriod: false,
            signedDate: nowMs,
            environment: environment,
            recentSubscriptionStartDate: recentSubscriptionStartMs,
            renewalDate: autoRenewStatus == .on ? expiresMs : nil,
            currency: currency,
            renewalPrice: renewalPriceMilliunits,
            appAccountToken: appAccountToken,
            appTransactionId: appTransactionId)
    }
}
