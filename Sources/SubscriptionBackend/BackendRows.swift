/// The backend's own tables, one Codable row type each; column names are the property names.

/// One transaction as last signed by the store; a newer `signedMs` replaces an older one.
struct TransactionRow: Codable, Sendable, Equatable {
    var environment: String
    var transactionId: String
    var originalTransactionId: String
    var bundleId: String
    var productId: String
    var groupId: String?
    var type: String
    var purchaseMs: Int64
    var originalPurchaseMs: Int64?
    var expiresMs: Int64?
    var revocationMs: Int64?
    var revocationType: String?
    var price: Int64?
    var currency: String?
    var ownership: String
    var offerType: Int?
    var offerDiscountType: String?
    var reason: String?
    var appAccountToken: String?
    var isUpgraded: Bool
    var signedMs: Int64
    var jws: String
    /// Apple's `storefront` (ISO 3166-1 alpha-3): the charts' country filter.
    var storefront: String? = nil
}

/// The renewal info of one subscription (original transaction); newest `signedMs` wins.
struct RenewalRow: Codable, Sendable, Equatable {
    var environment: String
    var originalTransactionId: String
    var productId: String?
    var autoRenewProductId: String?
    var autoRenewStatus: Int?
    var expirationIntent: Int?
    var inBillingRetry: Bool
    var gracePeriodExpiresMs: Int64?
    var signedMs: Int64
    var jws: String
    /// The first signing seen with auto-renew off after `autoRenewOnMs` (`EventRules.unsubscribeDetected`).
    var unsubscribeDetectedMs: Int64? = nil
    /// The latest signing seen with auto-renew on.
    var autoRenewOnMs: Int64? = nil
}

/// A subscription's renewal info beside its latest transaction (`BackendDatabase.subscriptionStates`).
struct SubscriptionStateRow: Codable, Sendable, Equatable {
    var originalTransactionId: String
    var autoRenewStatus: Int?
    var expirationIntent: Int?
    var inBillingRetry: Bool
    var expiresMs: Int64?
    var revocationMs: Int64?
}

/// Which app user owns an original transaction.
struct LinkRow: Codable, Sendable, Equatable {
    var environment: String
    var originalTransactionId: String
    var bundleId: String
    var appUserId: String
}

struct CustomerRow: Codable, Sendable, Equatable {
    var appUserId: String
    var firstSeenMs: Int64
    /// The ID the customer was first known by, when an earlier one (an anonymous ID) was merged in; nil: `appUserId`.
    var originalAppUserId: String? = nil
    /// When the app last asked about the customer or posted for them (`LastSeenRecorder`).
    var lastSeenMs: Int64? = nil
    /// `firstSeenMs` on the store's clock as the backend knew it then (the later of its clock
    /// and the latest signed date received): what the charts compare with purchase dates. Nil
    /// for customers first seen before 2026-11-29.
    var firstSeenStoreMs: Int64? = nil
}

/// Another ID naming a customer: an anonymous one merged in, or one logged in from.
struct UserAliasRow: Codable, Sendable, Equatable {
    var alias: String
    var appUserId: String
    /// When the alias was first seen as a customer of its own.
    var firstSeenMs: Int64
}

/// A subscriber attribute the app set: a string under a key (`$email`, `$displayName`, its own).
struct AttributeRow: Codable, Sendable, Equatable {
    var appUserId: String
    var key: String
    var value: String
    var updatedMs: Int64
}

/// A customer's app transaction for one app and environment: when they first got the app, in which version.
struct AppTransactionRow: Codable, Sendable, Equatable {
    var appUserId: String
    var bundleId: String
    var environment: String
    var appTransactionId: String?
    var originalApplicationVersion: String
    var originalPurchaseMs: Int64
    var signedMs: Int64
}

/// An offering as stored: its JSON, and whether it is the app's current one.
struct OfferingRow: Codable, Sendable, Equatable {
    var bundleId: String
    var id: String
    var body: String
    var isCurrent: Bool
    var updatedMs: Int64
}

/// A customer's variant in an experiment, fixed at their first request for offerings.
struct EnrollmentRow: Codable, Sendable, Equatable {
    var experimentId: String
    var appUserId: String
    var variant: String
    var enrolledMs: Int64
}

/// What customer info shows beside purchases (`BackendDatabase.customerExtras`).
struct CustomerExtras: Sendable, Equatable {
    var aliases: [String] = []
    var attributes: [AttributeRow] = []
    var grants: [GrantRow] = []
    var appTransactions: [AppTransactionRow] = []
}

/// An entitlement given by hand (support, press): RevenueCat's promotional grant.
struct GrantRow: Codable, Sendable, Equatable {
    var id: String
    var appUserId: String
    var entitlement: String
    var bundleId: String
    var duration: String
    var startMs: Int64
    /// nil for `lifetime`.
    var expiresMs: Int64?
    var revokedMs: Int64?
}

/// An `appAccountToken` the app told us belongs to an app user.
struct AliasRow: Codable, Sendable, Equatable {
    var appAccountToken: String
    var appUserId: String
}

struct NotificationRow: Codable, Sendable, Equatable {
    var notificationUUID: String
    var bundleId: String
    var environment: String
    var type: String
    var subtype: String?
    var signedMs: Int64
    var receivedMs: Int64
}

/// Per app and environment: the last notification applied and the store's latest clock reading.
struct CursorRow: Codable, Sendable, Equatable {
    var bundleId: String
    var environment: String
    var lastNotificationMs: Int64
    var storeClockMs: Int64
}

/// Transaction History's `revision` per customer, so a reconcile asks only for what changed.
struct RevisionRow: Codable, Sendable, Equatable {
    var environment: String
    var bundleId: String
    var appUserId: String
    var revision: String
}

struct EventRow: Codable, Sendable, Equatable {
    var seq: Int64
    var id: String
    var type: String
    var appUserId: String?
    var bundleId: String
    var environment: String
    var entitlement: String?
    var productId: String
    var transactionId: String?
    var originalTransactionId: String?
    var price: Int64?
    var currency: String?
    var storeTimeMs: Int64
    var createdMs: Int64
    /// The webhook body, fixed when the event is made so every delivery sends the same bytes.
    var body: String
}

struct OutboxRow: Codable, Sendable, Equatable {
    var eventId: String
    var url: String
    var attempts: Int
    var nextAttemptMs: Int64
    /// pending, delivered or failed.
    var state: String
    var lastStatus: Int?
    var lastError: String?
}

struct DeliveryRow: Codable, Sendable, Equatable {
    var eventId: String
    var url: String
    var attempt: Int
    var atMs: Int64
    var httpStatus: Int?
    var error: String?
    var ok: Bool
}

extension TransactionRow {
    /// The table's columns, for reads that leave one out.
    static let columns = ["environment", "transactionId", "originalTransactionId", "bundleId", "productId", "groupId", "type",
                          "purchaseMs", "originalPurchaseMs", "expiresMs", "revocationMs", "revocationType", "price", "currency",
                          "ownership", "offerType", "offerDiscountType", "reason", "appAccountToken", "isUpgraded", "signedMs", "jws", "storefront"]
}

extension RenewalRow {
    /// The table's columns, for reads that leave one out.
    static let columns = ["environment", "originalTransactionId", "productId", "autoRenewProductId", "autoRenewStatus",
                          "expirationIntent", "inBillingRetry", "gracePeriodExpiresMs", "signedMs", "jws", "unsubscribeDetectedMs", "autoRenewOnMs"]
}

/// A refund request the App Store told of (CONSUMPTION_REQUEST), and how it was answered and
/// decided (`RefundResponder`; states in `RefundRequestState`).
struct RefundRequestRow: Codable, Sendable, Equatable {
    /// The CONSUMPTION_REQUEST's `notificationUUID`: one row per request.
    var notificationUUID: String
    var bundleId: String
    var environment: String
    var transactionId: String
    var originalTransactionId: String
    /// Apple's `consumptionRequestReason`.
    var reason: String?
    /// The notification's `signedDate`.
    var requestedMs: Int64
    /// The last moment an answer is started: `requestedMs` + 12 hours.
    var deadlineMs: Int64
    var state: String
    var attempts: Int
    /// When the next attempt is due; while a responder holds the row, the end of its lease.
    var nextAttemptMs: Int64
    var lastStatus: Int?
    var lastError: String?
    var answeredMs: Int64?
    /// The `refundPreference` sent, when one was.
    var refundPreference: String?
    /// The App Store's decision once it came: `granted` (REFUND) or `declined` (REFUND_DECLINED).
    var outcome: String?
    var outcomeMs: Int64?
}

/// Whether a customer consented to consumption data being sent to Apple, as the app recorded it.
struct ConsentRow: Codable, Sendable, Equatable {
    var appUserId: String
    var consented: Bool
    var recordedMs: Int64
}
