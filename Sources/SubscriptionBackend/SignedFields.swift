import Foundation

/// The fields of Apple's signed payloads the backend uses, decoded leniently: every field is
/// optional and enums stay raw, so a field Apple adds tomorrow never makes real data unreadable.
public struct TransactionFields: Codable, Sendable, Equatable {
    /// Apple's `transactionId`; required. With `environment`, the key of the stored transaction.
    public var transactionId: String?
    /// Apple's `originalTransactionId`; required. Ties renewals together and links them to one customer.
    public var originalTransactionId: String?
    /// Must equal the app's bundle ID, or the transaction is refused.
    public var bundleId: String?
    /// Apple's `productId`; required.
    public var productId: String?
    /// Apple's `subscriptionGroupIdentifier`: a subscription's default entitlement name.
    public var subscriptionGroupIdentifier: String?
    /// Apple's `purchaseDate`: orders a subscription's periods.
    public var purchaseDate: Int64?
    /// Apple's `originalPurchaseDate`: when the subscription was first bought.
    public var originalPurchaseDate: Int64?
    /// Apple's `expiresDate`: whether a subscription is active at the store's clock.
    public var expiresDate: Int64?
    /// Apple's `type` (`Auto-Renewable Subscription`, `Consumable`, …): decides the events and entitlements it makes.
    public var type: String?
    /// The UUID the app set at purchase; links the transaction to the app user who claimed it.
    public var appAccountToken: String?
    /// `PURCHASED` (assumed when absent) or `FAMILY_SHARED`.
    public var inAppOwnershipType: String?
    /// When the store signed it: of two signings of one transaction, the later one wins.
    public var signedDate: Int64?
    /// Set on a refund or revocation; makes a `REFUND` or `REVOKE` event.
    public var revocationDate: Int64?
    /// Apple's `revocationReason`; decoded, not acted on.
    public var revocationReason: Int?
    /// Apple's `revocationType`: `FAMILY_REVOKE` makes `REVOKE` instead of `REFUND` and stays out of the refund rate.
    public var revocationType: String?
    /// Apple's `isUpgraded`: true on a period that an upgrade replaced.
    public var isUpgraded: Bool?
    /// Apple's `offerType` (1 introductory, 2 promotional, 3 offer code…): 1 makes the period `intro`.
    public var offerType: Int?
    /// Apple's `offerDiscountType`: `FREE_TRIAL` makes the period a trial.
    public var offerDiscountType: String?
    /// Must be one of the app's accepted environments; part of every stored key.
    public var environment: String?
    /// Apple's `transactionReason` (`PURCHASE` or `RENEWAL`): tells a renewal from a product change.
    public var transactionReason: String?
    /// ISO 4217 code of `price`.
    public var currency: String?
    /// Apple's `price` in milliunits (9990 for 9.99).
    public var price: Int64?
    /// Apple's `storefront` (three-letter country code): the event's `storefront` and `countryCode`.
    public var storefront: String?
    /// Apple's `offerIdentifier`: an offer code's reference is the event's `offerCode`.
    public var offerIdentifier: String?
}

/// The fields of Apple's signed renewal info (`JWSRenewalInfoDecodedPayload`) the backend uses,
/// as leniently decoded as `TransactionFields`.
public struct RenewalFields: Codable, Sendable, Equatable {
    /// The subscription it is about; required.
    public var originalTransactionId: String?
    /// The product of the current period.
    public var productId: String?
    /// The product the next period renews into; a change makes a `PRODUCT_CHANGE` event.
    public var autoRenewProductId: String?
    /// 1 on, 0 off: a change makes `CANCELLATION` or `UNCANCELLATION`.
    public var autoRenewStatus: Int?
    /// Apple's `expirationIntent`, set once the subscription expired: makes an `EXPIRATION` event.
    public var expirationIntent: Int?
    /// Entering billing retry makes `BILLING_ISSUE`; leaving it without an expiry, `BILLING_RECOVERED`.
    public var isInBillingRetryPeriod: Bool?
    /// End of the billing grace period: access continues until then during billing retry.
    public var gracePeriodExpiresDate: Int64?
    /// When the store signed it: of two renewal infos, the later one wins.
    public var signedDate: Int64?
    /// Must be one of the app's accepted environments (Apple checks no bundle ID in renewal info).
    public var environment: String?
    /// Apple's `renewalDate`; decoded, not used.
    public var renewalDate: Int64?
    /// Apple's `offerType` of the next renewal; decoded, not used.
    public var offerType: Int?
}

struct NotificationFields: Decodable {
    struct AppFields: Decodable {
        var bundleId: String?
        var appAppleId: Int64?
        var environment: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
        /// CONSUMPTION_REQUEST's `consumptionRequestReason`.
        var consumptionRequestReason: String?
    }
    struct TokenFields: Decodable {
        var bundleId: String?
        var appAppleId: Int64?
        var externalPurchaseId: String?
    }
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var signedDate: Int64?
    var data: AppFields?
    var summary: AppFields?
    var externalPurchaseToken: TokenFields?
    var appData: AppFields?
}

/// A verified transaction with the JWS it came in.
public struct SignedTransaction: Sendable, Equatable {
    /// The JWS as received: stored with the row, and the tie-break when two signings share a `signedDate`.
    public var jws: String
    /// Its payload, decoded once the chain and app checks passed.
    public var fields: TransactionFields
}

/// Verified renewal info with the JWS it came in.
public struct SignedRenewalInfo: Sendable, Equatable {
    /// The JWS as received: stored with the row, and the tie-break when two signings share a `signedDate`.
    public var jws: String
    /// Its payload, decoded once the chain and environment checks passed.
    public var fields: RenewalFields
}

/// A notification after every check, with its nested data verified too.
public struct VerifiedNotification: Sendable, Equatable {
    /// `notificationUUID`, lowercased: a notification applied before is recognised by it and changes nothing.
    public var uuid: String
    /// Apple's `notificationType`; `EXPIRED` and `GRACE_PERIOD_EXPIRED` make an `EXPIRATION` event.
    public var type: String
    /// Apple's `subtype`, when the type has one.
    public var subtype: String?
    /// When the store signed it: moves the backend's view of the store's clock and the history cursor.
    public var signedDate: Int64
    /// From `data`, else `summary`, `externalPurchaseToken` or `appData`, in Apple's order.
    public var environment: String
    /// The nested `signedTransactionInfo`, verified with the same checks.
    public var transaction: SignedTransaction?
    /// The nested `signedRenewalInfo`, verified with the same checks.
    public var renewal: SignedRenewalInfo?
    /// `data.consumptionRequestReason` of a CONSUMPTION_REQUEST (why the customer asks for a refund).
    public var consumptionRequestReason: String? = nil
}

/// What the backend reads of a signed app transaction (StoreKit 2's `AppTransaction`): who first
/// got the app, when, and in which version. Leniently decoded: absent fields are nil.
public struct AppTransactionFields: Codable, Sendable, Equatable {
    public var receiptType: String?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var appTransactionId: String?
    public var originalApplicationVersion: String?
    public var originalPurchaseDate: Int64?
    public var signedDate: Int64?
}
