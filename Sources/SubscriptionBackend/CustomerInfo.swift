/// `GET /v1/customers/{appUserId}`: what the app asks to unlock content, from the backend's own
/// state (no call to the store). Dates are milliseconds since 1970, as in Apple's payloads.
public struct CustomerInfo: Codable, Sendable, Equatable {
    /// The app's own ID for the user, as in the request path; transactions are linked to it.
    public var appUserId: String
    /// When the backend first heard of the customer, by its own clock (the earliest of any ID merged in).
    public var firstSeen: Int64
    /// The ID the customer was first known by: an anonymous ID merged in on log in, else `appUserId`.
    public var originalAppUserId: String
    /// Every other ID that names this customer (merged or logged in from), sorted.
    public var aliases: [String]
    /// When the app last read or posted for the customer (saved within a second); nil before that.
    public var lastSeen: Int64?
    /// The app version the customer first got (the AppTransaction the app posted); nil until it posts one.
    public var originalApplicationVersion: String?
    /// When the customer first got the app (the AppTransaction's `originalPurchaseDate`); nil until posted.
    public var originalPurchaseDate: Int64?
    /// What the app set with `PUT /v1/customers/{id}/attributes`, by key.
    public var subscriberAttributes: [String: Attribute]
    /// The store's clock as the backend knows it (the later of its own clock and the latest
    /// signed date received): what `isActive` is judged at.
    public var requestDate: Int64
    /// Apple's subscription management page (apps.apple.com/account/subscriptions), the same for every customer.
    public var managementURL: String
    /// Keyed by entitlement name (configured, else subscription group ID, else product ID); where several
    /// products grant one, an active one wins, then the later expiry.
    public var entitlements: [String: Entitlement]
    /// One entry per auto-renewable subscription (original transaction), oldest purchase first.
    public var subscriptions: [Subscription]
    /// Every other purchase (consumables included), oldest first.
    public var nonSubscriptions: [NonSubscription]

    enum CodingKeys: String, CodingKey {
        case appUserId, firstSeen, originalAppUserId, aliases, lastSeen, originalApplicationVersion, originalPurchaseDate
        case subscriberAttributes, requestDate, managementURL
        case entitlements, subscriptions, nonSubscriptions
    }

    /// Absent values are written as null, so every field is always there.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appUserId, forKey: .appUserId)
        try c.encode(firstSeen, forKey: .firstSeen)
        try c.encode(originalAppUserId, forKey: .originalAppUserId)
        try c.encode(aliases, forKey: .aliases)
        try c.encode(lastSeen, forKey: .lastSeen)
        try c.encode(originalApplicationVersion, forKey: .originalApplicationVersion)
        try c.encode(originalPurchaseDate, forKey: .originalPurchaseDate)
        try c.encode(subscriberAttributes, forKey: .subscriberAttributes)
        try c.encode(requestDate, forKey: .requestDate)
        try c.encode(managementURL, forKey: .managementURL)
        try c.encode(entitlements, forKey: .entitlements)
        try c.encode(subscriptions, forKey: .subscriptions)
        try c.encode(nonSubscriptions, forKey: .nonSubscriptions)
    }

    /// One subscriber attribute: its value and when the app set it (ms).
    public struct Attribute: Codable, Sendable, Equatable {
        public var value: String
        public var updatedAt: Int64
    }

    /// Access to one named feature, as the best of the products that grant it gives it.
    public struct Entitlement: Codable, Sendable, Equatable {
        /// Whether to unlock the feature now, judged at `requestDate`: active or in a grace period, not revoked.
        public var isActive: Bool
        /// The product that grants it.
        public var productId: String
        /// When access ends; nil for purchases that never expire.
        public var expiresDate: Int64?
        /// Purchase date of the granting transaction (the latest period's, for a subscription).
        public var purchaseDate: Int64
        /// Whether auto-renew is on and the subscription neither expired nor revoked; false for other purchases.
        public var willRenew: Bool
        /// trial, intro or normal.
        public var periodType: String
        /// Set while Apple retries billing: the expiry the failed renewal was for.
        public var billingIssueDetectedAt: Int64?
        /// Set while billing retry runs inside a grace period: access lasts until then.
        public var gracePeriodExpiresDate: Int64?
        /// `Production` or `Sandbox`, from the granting transaction.
        public var environment: String
        /// `PURCHASED` or `FAMILY_SHARED` (Apple's `inAppOwnershipType`).
        public var ownershipType: String
        /// The app whose product grants it, for a backend serving several apps.
        public var bundleId: String
        /// `app_store`, or `promotional` for an entitlement granted by hand (RevenueCat's values).
        public var store: String
    
        enum CodingKeys: String, CodingKey { case isActive, productId, expiresDate, purchaseDate, willRenew, periodType, billingIssueDetectedAt, gracePeriodExpiresDate, environment, ownershipType, bundleId, store }

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
            try c.encode(store, forKey: .store)
        }
    }

    /// One subscription (an original transaction) with its latest transaction and renewal info.
    public struct Subscription: Codable, Sendable, Equatable {
        /// Apple's `originalTransactionId`: the subscription's identity across renewals.
        public var originalTransactionId: String
        /// The latest period's transaction (by purchase date) that the other fields describe.
        public var latestTransactionId: String
        /// The latest period's product.
        public var productId: String
        /// Apple's subscription group of the product.
        public var subscriptionGroupIdentifier: String?
        /// The app the subscription belongs to.
        public var bundleId: String
        /// Apple's status values: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int
        /// Status 1 or 4: access continues, in a grace period included.
        public var isActive: Bool
        /// When the latest period was bought or renewed.
        public var purchaseDate: Int64
        /// When the subscription was first bought.
        public var originalPurchaseDate: Int64?
        /// End of the latest period.
        public var expiresDate: Int64?
        /// Auto-renew is on and the subscription has neither expired nor been revoked.
        public var willRenew: Bool
        /// The product the next period renews into (from renewal info); differs from `productId` after a change.
        public var autoRenewProductId: String?
        /// RevenueCat's period type: `trial`, `intro` or `normal`, from the latest period's offer.
        public var periodType: String
        /// Set while Apple retries billing: the latest period's expiry.
        public var billingIssueDetectedAt: Int64?
        /// Set while billing retry runs inside a grace period (status 4).
        public var gracePeriodExpiresDate: Int64?
        /// When the latest period was refunded or revoked (status 5).
        public var revocationDate: Int64?
        /// Apple's `price` of the latest period, in milliunits (9990 for 9.99).
        public var price: Int64?
        /// ISO 4217 code of `price`.
        public var currency: String?
        /// `Production` or `Sandbox`.
        public var environment: String
        /// `PURCHASED` or `FAMILY_SHARED` (Apple's `inAppOwnershipType`).
        public var ownershipType: String
        /// `app_store`.
        public var store: String
        /// When auto-renew was seen turned off (RevenueCat's `unsubscribe_detected_at`); nil while it is on.
        public var unsubscribeDetectedAt: Int64?
        /// When the latest period was refunded (`revocationDate`, unless Family Sharing revoked it).
        public var refundedAt: Int64?
    
        enum CodingKeys: String, CodingKey { case originalTransactionId, latestTransactionId, productId, subscriptionGroupIdentifier, bundleId, status, isActive, purchaseDate, originalPurchaseDate, expiresDate, willRenew, autoRenewProductId, periodType, billingIssueDetectedAt, gracePeriodExpiresDate, revocationDate, price, currency, environment, ownershipType, store, unsubscribeDetectedAt, refundedAt }

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
            try c.encode(store, forKey: .store)
            try c.encode(unsubscribeDetectedAt, forKey: .unsubscribeDetectedAt)
            try c.encode(refundedAt, forKey: .refundedAt)
        }
    }

    /// A purchase that does not auto-renew: consumable, non-consumable or non-renewing subscription.
    public struct NonSubscription: Codable, Sendable, Equatable {
        /// Apple's `transactionId`.
        public var transactionId: String
        /// The product bought.
        public var productId: String
        /// Apple's product `type`, as the transaction states it (`Consumable`, `Non-Consumable`, …).
        public var type: String
        /// The app it was bought in.
        public var bundleId: String
        /// When it was bought.
        public var purchaseDate: Int64
        /// When it was refunded or revoked; nil while it stands.
        public var revocationDate: Int64?
        /// Apple's `price` in milliunits (9990 for 9.99).
        public var price: Int64?
        /// ISO 4217 code of `price`.
        public var currency: String?
        /// `Production` or `Sandbox`.
        public var environment: String
        /// `PURCHASED` or `FAMILY_SHARED` (Apple's `inAppOwnershipType`).
        public var ownershipType: String
        /// `app_store`.
        public var store: String
        /// When it was refunded (`revocationDate`, unless Family Sharing revoked it).
        public var refundedAt: Int64?
    
        enum CodingKeys: String, CodingKey { case transactionId, productId, type, bundleId, purchaseDate, revocationDate, price, currency, environment, ownershipType, store, refundedAt }

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
            try c.encode(store, forKey: .store)
            try c.encode(refundedAt, forKey: .refundedAt)
        }
    }
}
