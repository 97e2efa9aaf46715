// Apple's enum raw values, exactly as they travel on the wire (reference §4.5).

/// The JWS `type` string of a transaction. Differs from the Server API's `productType` query values.
public enum TransactionType: String, Codable, Sendable, CaseIterable {
    case autoRenewable = "Auto-Renewable Subscription"
    case nonConsumable = "Non-Consumable"
    case consumable = "Consumable"
    case nonRenewing = "Non-Renewing Subscription"
}

public enum InAppOwnershipType: String, Codable, Sendable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"
}

public enum TransactionReason: String, Codable, Sendable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}

public enum OfferType: Int, Codable, Sendable {
    case introductory = 1
    case promotional = 2
    case offerCode = 3
    case winBack = 4
}

public enum OfferDiscountType: String, Codable, Sendable {
    case freeTrial = "FREE_TRIAL"
    case payAsYouGo = "PAY_AS_YOU_GO"
    case payUpFront = "PAY_UP_FRONT"
    case oneTime = "ONE_TIME"
}

public enum RevocationReason: Int, Codable, Sendable {
    case otherReason = 0
    case dueToIssue = 1
}

public enum RevocationType: String, Codable, Sendable {
    case refundFull = "REFUND_FULL"
    case refundProrated = "REFUND_PRORATED"
    case familyRevoke = "FAMILY_REVOKE"
}

/// Subscription status values 1–5 of Get All Subscription Statuses and notifications.
public enum SubscriptionStatus: Int, Codable, Sendable, CaseIterable {
    case active = 1
    case expired = 2
    case billingRetry = 3
    case billingGracePeriod = 4
    case revoked = 5
}

public enum ExpirationIntent: Int, Codable, Sendable {
    case customerCancelled = 1
    case billingError = 2
    case didNotConsentToPriceIncrease = 3
    case productNotAvailable = 4
    case other = 5
}

public enum AutoRenewStatus: Int, Codable, Sendable {
    case off = 0
    case on = 1
}

public enum PriceIncreaseStatus: Int, Codable, Sendable {
    case notResponded = 0
    case consentedOrNotified = 1
}

public enum PurchasePlatform: String, Codable, Sendable {
    case iOS, macOS, tvOS, visionOS
}
