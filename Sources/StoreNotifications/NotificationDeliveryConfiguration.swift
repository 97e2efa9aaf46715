/// How the delivery service behaves: `openstore serve --notification-timeout S
/// --notification-concurrency N`.
public struct NotificationDeliveryConfiguration: Sendable {
    /// Seconds an attempt may take, connection included, before it is TIMED_OUT. Apple does not
    /// publish its timeout; "a few seconds" is what its engineers advise receivers to answer within.
    public var timeoutSeconds: Double
    /// Most attempts in flight at once, over all worlds and apps.
    public var concurrency: Int
    /// The longest the service sleeps when the last check found nothing due. It wakes sooner
    /// when a notification is committed, a clock jumps, or the next retry falls due
    /// (`AppStore.waitForDueNotifications`); this bounds only what it cannot see, such as a
    /// world taken over from another instance.
    public var pollIntervalSeconds: Double
    /// Most notifications taken from the outbox per world and pass.
    public var batchSize: Int
    /// Notifications read from the outbox at a time within a pass (the next page is read while
    /// the last one is sent).
    public var pageSize: Int

    /// The defaults are those of `openstore serve`; values too small to work are raised to a floor
    /// (at least 50 ms timeout, one attempt, 1 ms poll, one notification per batch and page).
    public init(timeoutSeconds: Double = 5, concurrency: Int = 64, pollIntervalSeconds: Double = 5, batchSize: Int = 20_000,
                pageSize: Int = 1000) {
        self.timeoutSeconds = max(0.05, timeoutSeconds)
        self.concurrency = max(1, concurrency)
        self.pollIntervalSeconds = max(0.001, pollIntervalSeconds)
        self.batchSize = max(1, batchSize)
        self.pageSize = max(1, pageSize)
    }
}
