/// One App Store Server Notification in the durable outbox: what it will carry (unsigned; it is
/// signed at each delivery and each history read, always with the same content and
/// `notificationUUID`), and where its delivery stands.
public struct NotificationRecord: Sendable, Equatable {
    /// The store-wide change number of the event it comes from: history order and page cursor.
    public var seq: Int64
    /// `notificationUUID`, fixed at emission, so every retry and history read carries the same one.
    public var uuid: String
    /// The world whose event it reports; delivery passes run per world.
    public var world: String
    /// The app it is about; with `environment`, it picks the URL the notification is sent to.
    public var bundleId: String
    /// The customer it concerns ("" for a mass-extension summary and for TEST).
    public var customer: String
    /// `Sandbox`, `Production`…: with `bundleId` it picks the URL, and it sets which retry schedule applies.
    public var environment: String
    /// `notificationType`, e.g. `DID_RENEW`.
    public var type: String
    /// `subtype`, when the type has one.
    public var subtype: String?
    /// The transaction whose signed info it carries, if any.
    public var transactionId: Int64?
    /// The subscription chain it concerns, if any.
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
    /// Delivery attempts made so far; the next one is number `attemptCount + 1`.
    public var attemptCount: Int
    /// Whether an attempt succeeded; history pages with `onlyFailures` keep the others.
    public var delivered: Bool
    /// `sendAttempts` as JSON: `[{"attemptDate":…,"sendAttemptResult":"…"}, …]`.
    public var attempts: String

    /// A new outbox row: by default no attempts yet, not delivered, first due at `nextAttemptMs`.
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
    /// The outbox row this outcome belongs to.
    public var seq: Int64
    /// Attempts made, this one included. An update whose count is not above the stored one changes
    /// nothing, so a stale writer never moves a row back.
    public var attemptCount: Int
    /// Whether this attempt succeeded.
    public var delivered: Bool
    /// When to try again; nil ends the retries (delivered, or no attempt left).
    public var nextAttemptMs: Int64?
    /// The whole `sendAttempts` JSON list after this attempt; it replaces the stored one.
    public var attempts: String
    /// One attempt's outcome, written back through a `WriteBatch` as `.attempt`.
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
