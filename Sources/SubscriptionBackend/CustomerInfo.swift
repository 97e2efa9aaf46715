/// `GET /v1/customers/{appUserId}`: what the app asks to unlock content, from the backend's own
/// state (no call to the store). Dates are milliseconds since 1970, as in Apple's payloads.
public struct CustomerInfo: Codable, Sendable, Equatable {
    public var appUserId: String
    public var firstSeen: Int64
    /// The store's clock as the backend knows it (the later of its own clock and the latest
    /// signed date received): what `isActive` is judged at.
    public var requestDate: Int64
    public var managementURL: String
    public var entitlements: [String: Entitlement]
    public var subscriptions: [Subscription]
    public var nonSubscriptions: [NonSubscription]

    public struct Entitlement: Codable, Sendable, Equatable {
        public var isActive: Bool
        public var productId: String
        public var expiresDate: Int64?
        public var purchaseDate: Int64
        public var willRenew: Bool
        /// trial, intro or normal.
        public var periodType: String
        public var billingIssueDetectedAt: Int64?
        public var gracePeriodExpiresDate: Int64?
        public var environment: String
        public var ownershipType: String
        public var bundleId: String
    
        enum CodingKeys: String, CodingKey { case isActive, productId, expiresDate, purchaseDate, willRenew, periodType, billingIssueDetectedAt, gracePeriodExpiresDate, environment, ownershipType, bundleId }

        /// Absent values are written as null, so every field is always there.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(isActive, forKey: .isActive)
            try c.encode(productId, forKey: .productId)
            try c.encode(expiresDate, forKey: .expiresDate)
            try c.encode(purchaseDate, forKey: .purchaseDate)
            try c.encode(willRenew, forKey: .willRenew)
            try c.encode(periodType, forKey: .periodType)
            try c.encode(billingIssueDetectedAt, forKey: .billingIssueDetectedAt)
            try c.encode(gracePeriodExpiresDate, forKey: .gracePeriodExpiresDate)
            try c.encode(environment, forKey: .environment)
            try c.encode(ownershipType, forKey: .ownershipType)
            try c.encode(bundleId, forKey: .bundleId)
        }
    }

    /// One subscription (an original transaction) with its latest transaction and renewal info.
    public struct Subscription: Codable, Sendable, Equatable {
        public var originalTransactionId: String
        public var latestTransactionId: String
        public var productId: String
        public var subscriptionGroupIdentifier: String?
        public var bundleId: String
        /// Apple's status values: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int
        public var isActive: Bool
        public var purchaseDate: Int64
        public var originalPurchaseDate: Int64?
        public var expiresDate: Int64?
        public var willRenew: Bool
        public var autoRenewProductId: String?
        public var periodType: String
        public var billingIssueDetectedAt: Int64?
        public var gracePeriodExpiresDate: Int64?
        public var revocationDate: Int64?
        public var price: Int64?
        public var currency: String?
        public var environment: String
        public var ownershipType: String
    
        enum CodingKeys: String, CodingKey { case originalTransactionId, latestTransactionId, productId, subscriptionGroupIdentifier, bundleId, status, isActive, purchaseDate, originalPurchaseDate, expiresDate, willRenew, autoRenewProductId, periodType, billingIssueDetectedAt, gracePeriodExpiresDate, revocationDate, price, currency, environment, ownershipType }

        /// Absent values are written as null, so every field is always there.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(originalTransactionId, forKey: .originalTransactionId)
            try c.encode(latestTransactionId, forKey: .latestTransactionId)
            try c.encode(productId, forKey: .productId)
            try c.encode(subscriptionGroupIdentifier, forKey: .subscriptionGroupIdentifier)
            try c.encode(bundleId, forKey: .bundleId)
            try c.encode(status, forKey: .status)
            try c.encode(isActive, forKey: .isActive)
            try c.encode(purchaseDate, forKey: .purchaseDate)
            try c.encode(originalPurchaseDate, forKey: .originalPurchaseDate)
            try c.encode(expiresDate, forKey: .expiresDate)
            try c.encode(willRenew, forKey: .willRenew)
            try c.encode(autoRenewProductId, forKey: .autoRenewProductId)
            try c.encode(periodType, forKey: .periodType)
            try c.encode(billingIssueDetectedAt, forKey: .billingIssueDetectedAt)
            try c.encode(gracePeriodExpiresDate, forKey: .gracePeriodExpiresDate)
            try c.encode(revocationDate, forKey: .revocationDate)
            try c.encode(price, forKey: .price)
            try c.encode(currency, forKey: .currency)
            try c.encode(environment, forKey: .environment)
            try c.encode(ownershipType, forKey: .ownershipType)
        }
    }

    public struct NonSubscription: Codable, Sendable, Equatable {
        public var transactionId: String
        public var productId: String
        public var type: String
        public var bundleId: String
        public var purchaseDate: Int64
        public var revocationDate: Int64?
        public var price: Int64?
        public var currency: String?
        public var environment: String
        public var ownershipType: String
    
        enum CodingKeys: String, CodingKey { case transactionId, productId, type, bundleId, purchaseDate, revocationDate, price, currency, environment, ownershipType }

        /// Absent values are written as null, so every field is always there.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(transactionId, forKey: .transactionId)
            try c.encode(productId, forKey: .productId)
            try c.encode(type, forKey: .type)
            try c.encode(bundleId, forKey: .bundleId)
            try c.encode(purchaseDate, forKey: .purchaseDate)
            try c.encode(revocationDate, forKey: .revocationDate)
            try c.encode(price, forKey: .price)
            try c.encode(currency, forKey: .currency)
            try c.encode(environment, forKey: .environment)
            try c.encode(ownershipType, forKey: .ownershipType)
        }
    }
}
