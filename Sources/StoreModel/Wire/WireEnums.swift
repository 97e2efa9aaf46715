// Apple's enum raw values, exactly as they travel on the wire (reference §4.5).

/// The JWS `type` string of a transaction. Differs from the Server API's `productType` query values.
public enum TransactionType: String, Codable, Sendable, CaseIterable {
    case autoRenewable = "Auto-Renewable Subscription"
    case nonConsumable = "Non-Consumable"
    case consumable = "Consumable"
    case nonRenewing = "Non-Renewing Subscription"
}

/// Mirrors the App Store's `inAppOwnershipType`: bought by the customer or shared through Family Sharing.
public enum InAppOwnershipType: String, Codable, Sendable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"
}

/// Mirrors the App Store's `transactionReason`: a customer's purchase or an automatic renewal.
public enum TransactionReason: String, Codable, Sendable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}

/// Mirrors the App Store's `offerType`: introductory, promotional, offer code or win-back (1–4).
public enum OfferType: Int, Codable, Sendable {
    case introductory = 1
    case promotional = 2
    case offerCode = 3
    case winBack = 4
}

/// Mirrors the App Store's `offerDiscountType`: how the customer pays during an offer.
public enum OfferDiscountType: String, Codable, Sendable {
    case freeTrial = "FREE_TRIAL"
    case payAsYouGo = "PAY_AS_YOU_GO"
    case payUpFront = "PAY_UP_FRONT"
    case oneTime = "ONE_TIME"
}

/// Mirrors the App Store's `revocationReason`: 1 for an issue in the app, 0 for another reason.
public enum RevocationReason: Int, Codable, Sendable {
    case otherReason = 0
    case dueToIssue = 1
}

/// Mirrors the App Store's `revocationType`: full refund, prorated refund or Family Sharing revocation.
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

/// Mirrors the App Store's `expirationIntent`: why a subscription expired (1–5).
public enum ExpirationIntent: Int, Codable, Sendable {
    case customerCancelled = 1
    case billingError = 2
    case didNotConsentToPriceIncrease = 3
    case productNotAvailable = 4
    case other = 5
}

/// Mirrors the App Store's `autoRenewStatus`: 1 when the subscription will renew, 0 when not.
public enum AutoRenewStatus: Int, Codable, Sendable {
    case off = 0
    case on = 1
}

/// Mirrors the App Store's `priceIncreaseStatus`: 0 awaiting the customer's answer, 1 consented
/// (or notified, for increases that need no consent).
public enum PriceIncreaseStatus: Int, Codable, Sendable {
    case notResponded = 0
    case consentedOrNotified = 1
}

/// Mirrors the App Store's `originalPlatform` of an app transaction.
public enum PurchasePlatform: String, Codable, Sendable {
    case iOS, macOS, tvOS, visionOS
}
