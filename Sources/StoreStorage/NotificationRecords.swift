/// One App Store Server Notification in the durable outbox: what it will carry (unsigned; it is
/// signed at each delivery and each history read, always with the same content and
/// `notificationUUID`), and where its delivery stands.
public struct NotificationRecord: Sendable, Equatable {
    /// The store-wide change number of the event it comes from: history order and page cursor.
    public var seq: Int64
    public var uuid: String
    public var world: String
    public var bundleId: String
    /// The customer it concerns ("" for a mass-extension summary and for TEST).
    public var customer: String
    public var environment: String
    public var type: String
    public var subtype: String?
    public var transactionId: Int64?
    public var originalId: Int64?
    /// World time of the event; the payload's `signedDate` and the first attempt's due time.
    public var signedMs: Int64
    /// `data` or `summary`: which key `body` goes under.
    public var bodyKey: String
    /// The `data` (without its signed members) or `summary` object, as JSON.
    public var body: String
    /// The transaction's decoded JWS payload (with `signedDate`), when the notification carries one.
    public var transactionJSON: String?
    /// The renewal info's decoded JWS payload, for auto-renewable subscriptions.
    public var renewalJSON: String?
    /// Set for TEST notifications: the `testNotificationToken` that finds them.
    public var testToken: String?
    /// World time of the next delivery attempt; nil once delivered or out of attempts.
    public var nextAttemptMs: Int64?
    public var attemptCount: Int
    public var delivered: Bool
    /// `sendAttempts` as JSON: `[{"attemptDate":…,"sendAttemptResult":"…"}, …]`.
    public var attempts: String

    public init(
        seq: Int64, uuid: String, world: String, bundleId: String, customer: String, environment: String,
        type: String, subtype: String?, transactionId: Int64?, originalId: Int64?, signedMs: Int64,
        bodyKey: String, body: String, transactionJSON: String?, renewalJSON: String?, testToken: String? = nil,
        nextAttemptMs: Int64?, attemptCount: Int = 0, delivered: Bool = false, attempts: String = "[]"
    ) {
        self.seq = seq
        self.uuid = uuid
        self.world = world
        self.bundleId = bundleId
        self.customer = customer
        self.environment = environment
        self.type = type
        self.subtype = subtype
        self.transactionId = transactionId
        self.originalId = originalId
        self.signedMs = signedMs
        self.bodyKey = bodyKey
        self.body = body
        self.transactionJSON = transactionJSON
        self.renewalJSON = renewalJSON
        self.testToken = testToken
        self.nextAttemptMs = nextAttemptMs
        self.attemptCount = attemptCount
        self.delivered = delivered
        self.attempts = attempts
    }
}

/// The outcome of one delivery attempt, written back to the outbox row.
public struct NotificationAttemptUpdate: Sendable, Equatable {
    public var seq: Int64
    public var attemptCount: Int
    public var delivered: Bool
    public var nextAttemptMs: Int64?
    public var attempts: String
    public init(seq: Int64, attemptCount: Int, delivered: Bool, nextAttemptMs: Int64?, attempts: String) {
        self.seq = seq
        self.attemptCount = attemptCount
        self.delivered = delivered
        self.nextAttemptMs = nextAttemptMs
        self.attempts = attempts
    }
}

/// A write to the outbox inside a `WriteBatch`: a new notification, or a delivery attempt's outcome.
public enum NotificationWrite: Sendable, Equatable {
    case emit(NotificationRecord)
    case attempt(NotificationAttemptUpdate)
}
