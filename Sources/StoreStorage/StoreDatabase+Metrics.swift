import SQLKit

/// Counts the `/metrics` endpoint reports, read from the durable tables at scrape time, so they
/// are exact and survive restarts. Portable SQL (SQLite and PostgreSQL), every value a bind.
public struct StoreCounts: Sendable, Equatable {
    /// Transactions owned by purchase (family-shared copies left out), by `product_kind`.
    public var transactionsByKind: [String: Int64] = [:]
    /// App Store events (`lifecycle_events.type`) by type: DID_RENEW, DID_FAIL_TO_RENEW, REFUND, …
    public var eventsByType: [String: Int64] = [:]
    /// Send attempts of server notifications by `sendAttemptResult`.
    public var sendAttemptsByResult: [String: Int64] = [:]
    /// Customer accounts across every world.
    public var customers: Int64 = 0
    /// Per world: notifications waiting for a next attempt, and the oldest one's `signedDate`.
    public var pendingNotifications: [String: (count: Int64, oldestSignedMs: Int64)] = [:]
    /// Per world: the earliest renewal-schedule event time of its subscriptions.
    public var earliestSubscriptionEventMs: [String: Int64] = [:]

    /// All counts empty; `storeCounts` fills them in.
    public init() {}

    /// Written out because tuples are not `Equatable`: `pendingNotifications` is compared value by value.
    public static func == (a: StoreCounts, b: StoreCounts) -> Bool {
        a.transactionsByKind == b.transactionsByKind && a.eventsByType == b.eventsByType
            && a.sendAttemptsByResult == b.sendAttemptsByResult && a.customers == b.customers
            && a.pendingNotifications.mapValues { [$0.count, $0.oldestSignedMs] } == b.pendingNotifications.mapValues { [$0.count, $0.oldestSignedMs] }
            && a.earliestSubscriptionEventMs == b.earliestSubscriptionEventMs
    }
}

extension StoreDatabase {
    /// Every count `/metrics` reports, in a handful of GROUP BY reads. `attemptResults` are the
    /// `sendAttemptResult` values to count in the notifications' attempt lists.
    public func storeCounts(attemptResults: [String]) async throws -> StoreCounts {
        var counts = StoreCounts()
        let sql = readSQL
        for row in try await sql.raw("""
            SELECT product_kind AS k, CAST(COUNT(*) AS BIGINT) AS n FROM transactions WHERE ownership = \(bind: "PURCHASED") GROUP BY product_kind
            """).all() {
            counts.transactionsByKind[try row.decode(column: "k", as: String.self)] = try row.decode(column: "n", as: Int64.self)
        }
        for row in try await sql.raw("SELECT type AS k, CAST(COUNT(*) AS BIGINT) AS n FROM lifecycle_events GROUP BY type").all() {
            counts.eventsByType[try row.decode(column: "k", as: String.self)] = try row.decode(column: "n", as: Int64.self)
        }
        // Each attempt is `{"attemptDate":…,"sendAttemptResult":"RESULT"}` in a JSON array: the
        // quoted result occurs once per attempt, so occurrences are counted by length difference.
        for result in attemptResults {
            let quoted = "\"\(result)\""
            let row = try await sql.raw("""
                SELECT CAST(COALESCE(SUM((LENGTH(attempts) - LENGTH(REPLACE(attempts, \(bind: quoted), \(bind: "")))) / \(bind: quoted.count)), 0) AS BIGINT) AS n
                FROM notifications WHERE attempt_count > 0
                """).first()
            counts.sendAttemptsByResult[result] = try row?.decode(column: "n", as: Int64.self) ?? 0
        }
        counts.customers = try await sql.raw("SELECT CAST(COUNT(*) AS BIGINT) AS n FROM customers").first()?.decode(column: "n", as: Int64.self) ?? 0
        for row in try await sql.raw("""
            SELECT world AS w, CAST(COUNT(*) AS BIGINT) AS n, CAST(MIN(signed_ms) AS BIGINT) AS oldest FROM notifications
            WHERE delivered = 0 AND next_attempt_ms IS NOT NULL GROUP BY world
            """).all() {
            counts.pendingNotifications[try row.decode(column: "w", as: String.self)] =
                (try row.decode(column: "n", as: Int64.self), try row.decode(column: "oldest", as: Int64.self))
        }
        for row in try await sql.raw("""
            SELECT world AS w, CAST(MIN(next_event_ms) AS BIGINT) AS due FROM subscriptions WHERE next_event_ms IS NOT NULL GROUP BY world
            """).all() {
            counts.earliestSubscriptionEventMs[try row.decode(column: "w", as: String.self)] = try row.decode(column: "due", as: Int64.self)
        }
        return counts
    }
}
