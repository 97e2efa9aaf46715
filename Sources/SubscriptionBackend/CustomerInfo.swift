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
    }
}
