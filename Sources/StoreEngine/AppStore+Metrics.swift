import StoreModel
import StoreStorage

/// What `/metrics` reports about the store's business, counted from its durable record (the
/// App Store events it emitted, its transactions, the notification outbox) at the moment of
/// asking. Nothing here is kept in memory, so the figures are exact and survive restarts.
public struct StoreFigures: Sendable, Equatable {
    /// Purchases (not renewals, not family-shared copies) by product type as in the catalog
    /// ("Consumable", "NonConsumable", "NonRenewingSubscription", "RecurringSubscription").
    public var purchasesByProductType: [String: Int64]
    /// DID_RENEW events: renewals, billing recoveries included.
    public var renewals: Int64
    /// DID_FAIL_TO_RENEW events: a renewal that could not be billed.
    public var billingFailures: Int64
    /// REFUND events.
    public var refunds: Int64
    /// Every App Store event emitted, by notification type.
    public var eventsByType: [String: Int64]
    /// Server notification send attempts by `sendAttemptResult`.
    public var sendAttemptsByResult: [String: Int64]
    /// Notifications waiting for their next attempt, in all worlds.
    public var outboxDepth: Int64
    /// World time (ms) since the oldest waiting notification was signed, the largest over worlds.
    public var oldestPendingAgeMs: Int64
    /// World time (ms) the scheduler is behind: now minus the earliest renewal event that is due
    /// and not applied yet, the largest over worlds (0 when nothing is overdue).
    public var schedulerLagMs: Int64
    /// How many worlds the store has.
    public var worlds: Int
    /// How many customers are stored, over all worlds.
    public var customers: Int64
    /// With many instances on PostgreSQL: the world leases this instance holds (nil on SQLite).
    public var leasesHeld: Int?
}

extension AppStore {
    /// The `sendAttemptResult` values Apple documents, in its order.
    public static let sendAttemptResults = [
        "SUCCESS", "TIMED_OUT", "TLS_ISSUE", "CIRCULAR_REDIRECT", "NO_RESPONSE", "SOCKET_ISSUE",
        "UNSUPPORTED_CHARSET", "INVALID_RESPONSE", "PREMATURE_CLOSE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "OTHER",
    ]

    /// The store's figures now (a few GROUP BY reads; cheap enough for a scrape every few seconds).
    public func figures() async throws -> StoreFigures {
        let worlds = await listWorlds()
        let counts = try await database.storeCounts(attemptResults: Self.sendAttemptResults)
        let now = Dictionary(worlds.map { ($0.id, $0.nowMs) }, uniquingKeysWith: { first, _ in first })
        let renewals = counts.eventsByType["DID_RENEW"] ?? 0
        var purchases: [String: Int64] = [:]
        for kind in ProductKind.allCases {
            var count = counts.transactionsByKind[kind.rawValue] ?? 0
            // Each renewal is a transaction of its own; what is left was bought.
            if kind == .autoRenewable { count = max(0, count - renewals) }
            purchases[kind.rawValue] = count
        }
        var oldest: Int64 = 0
        for (world, pending) in counts.pendingNotifications {
            oldest = max(oldest, (now[world] ?? pending.oldestSignedMs) - pending.oldestSignedMs)
        }
        var lag: Int64 = 0
        for (world, due) in counts.earliestSubscriptionEventMs {
            lag = max(lag, (now[world] ?? due) - due)
        }
        return StoreFigures(
            purchasesByProductType: purchases, renewals: renewals, billingFailures: counts.eventsByType["DID_FAIL_TO_RENEW"] ?? 0,
            refunds: counts.eventsByType["REFUND"] ?? 0, eventsByType: counts.eventsByType,
            sendAttemptsByResult: counts.sendAttemptsByResult,
            outboxDepth: counts.pendingNotifications.values.reduce(0) { $0 + $1.count },
            oldestPendingAgeMs: oldest, schedulerLagMs: lag, worlds: worlds.count, customers: counts.customers,
            leasesHeld: self.worlds.env.ownership == nil ? nil : await servedWorldIds().count)
    }
}
