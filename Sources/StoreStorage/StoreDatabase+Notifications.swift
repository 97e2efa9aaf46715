import SQLKit

/// A page of Notification History: filters AND together; rows come in `seq` order after a cursor.
public struct NotificationHistoryQuery: Sendable, Equatable {
    /// The world to read from.
    public var world: String
    /// The app whose notifications are listed: Apple's history is per app.
    public var bundleId: String
    /// `signed_ms >= startMs`
    public var startMs: Int64
    /// `signed_ms < endMs`
    public var endMs: Int64
    /// `notificationType` to match; nil for any.
    public var type: String?
    /// `subtype` to match; nil for any.
    public var subtype: String?
    /// Only this customer's notifications; nil for all.
    public var customer: String?
    /// Apple's `onlyFailures`: only notifications not delivered (yet).
    public var onlyFailures: Bool
    /// Exclusive cursor on `seq`: the last row of the previous page.
    public var afterSeq: Int64?
    /// Page size; a negative value reads nothing.
    public var limit: Int
    /// Only the window and page size are required; every other filter is off by default.
    public init(
        world: String, bundleId: String, startMs: Int64, endMs: Int64, type: String? = nil, subtype: String? = nil,
        customer: String? = nil, onlyFailures: Bool = false, afterSeq: Int64? = nil, limit: Int
    ) {
        self.world = world
        self.bundleId = bundleId
        self.startMs = startMs
        self.endMs = endMs
        self.type = type
        self.subtype = subtype
        self.customer = customer
        self.onlyFailures = onlyFailures
        self.afterSeq = afterSeq
        self.limit = limit
    }
}

/// The notification outbox: what is due for delivery, history pages, test notifications.
extension StoreDatabase {
    /// Notifications of a world whose next attempt is due by `untilMs` (world time), oldest due first,
    /// after `after` (a `(next_attempt_ms, seq)` position) when given: a delivery pass reads its next
    /// page while the last one is in flight, so the page must start past it, whose outcomes are not
    /// written yet. The `notifications_due` index serves the range; rows decode without SQLKit.
    public func dueNotifications(world: String, untilMs: Int64, after: (dueMs: Int64, seq: Int64)? = nil, limit: Int) async throws -> [NotificationRecord] {
        if let after {
            return try await readRows("""
                SELECT * FROM notifications WHERE world = ? AND next_attempt_ms IS NOT NULL AND next_attempt_ms <= ?
                AND (next_attempt_ms, seq) > (?, ?) ORDER BY next_attempt_ms, seq LIMIT ?
                """, [.init(world), .init(untilMs), .init(after.dueMs), .init(after.seq), .init(max(0, limit))],
                decode: Self.notification(raw:))
        }
        return try await readRows("""
            SELECT * FROM notifications WHERE world = ? AND next_attempt_ms IS NOT NULL AND next_attempt_ms <= ?
            ORDER BY next_attempt_ms, seq LIMIT ?
            """, [.init(world), .init(untilMs), .init(max(0, limit))], decode: Self.notification(raw:))
    }

    /// The soonest next attempt of a world, if any notification waits.
    public func nextNotificationDueMs(world: String) async throws -> Int64? {
        try await readSQL.raw("""
            SELECT MIN(next_attempt_ms) AS due FROM notifications WHERE world = \(bind: world) AND next_attempt_ms IS NOT NULL
            """).first(decodingColumn: "due", as: Int64?.self) ?? nil
    }

    /// The TEST notification a `testNotificationToken` names (Get Test Notification Status).
    public func notification(testToken: String) async throws -> NotificationRecord? {
        try await readSQL.raw("SELECT * FROM notifications WHERE test_token = \(bind: testToken)").first().map(Self.notification(from:))
    }

    /// One outbox row by its change number, delivered or not.
    public func notification(seq: Int64) async throws -> NotificationRecord? {
        try await readSQL.raw("SELECT * FROM notifications WHERE seq = \(bind: seq)").first().map(Self.notification(from:))
    }

    /// Every notification of a world (optionally one app's), in emission order.
    public func notifications(world: String, bundleId: String? = nil, afterSeq: Int64 = 0, limit: Int = 10_000) async throws -> [NotificationRecord] {
        if let bundleId {
            return try await readSQL.raw("""
                SELECT * FROM notifications WHERE world = \(bind: world) AND bundle_id = \(bind: bundleId) AND seq > \(bind: afterSeq)
                ORDER BY seq LIMIT \(bind: limit)
                """).all().map(Self.notification(from:))
        }
        return try await readSQL.raw("""
            SELECT * FROM notifications WHERE world = \(bind: world) AND seq > \(bind: afterSeq) ORDER BY seq LIMIT \(bind: limit)
            """).all().map(Self.notification(from:))
    }

    /// One page of Get Notification History: the query's filters, `seq` order, TEST notifications left out.
    public func notificationHistory(_ query: NotificationHistoryQuery) async throws -> [NotificationRecord] {
        var sql = SQLQueryString("SELECT * FROM notifications WHERE world = ")
        sql.appendInterpolation(bind: query.world)
        sql.appendLiteral(" AND bundle_id = ")
        sql.appendInterpolation(bind: query.bundleId)
        if let customer = query.customer {
            sql.appendLiteral(" AND customer = ")
            sql.appendInterpolation(bind: customer)
        }
        if let after = query.afterSeq {
            sql.appendLiteral(" AND seq > ")
            sql.appendInterpolation(bind: after)
        }
        sql.appendLiteral(" AND signed_ms >= ")
        sql.appendInterpolation(bind: query.startMs)
        sql.appendLiteral(" AND signed_ms < ")
        sql.appendInterpolation(bind: query.endMs)
        if let type = query.type {
            sql.appendLiteral(" AND type = ")
            sql.appendInterpolation(bind: type)
        }
        if let subtype = query.subtype {
            sql.appendLiteral(" AND subtype = ")
            sql.appendInterpolation(bind: subtype)
        }
        if query.onlyFailures { sql.appendLiteral(" AND delivered = 0") }
        sql.appendLiteral(" AND test_token IS NULL ORDER BY seq LIMIT ")
        sql.appendInterpolation(bind: max(0, query.limit))
        return try await readSQL.raw(sql).all().map(Self.notification(from:))
    }

    static func notification(from row: any SQLRow) throws -> NotificationRecord {
        NotificationRecord(
            seq: try row.decode(column: "seq", as: Int64.self),
            uuid: try row.decode(column: "uuid", as: String.self),
            world: try row.decode(column: "world", as: String.self),
            bundleId: try row.decode(column: "bundle_id", as: String.self),
            customer: try row.decode(column: "customer", as: String.self),
            environment: try row.decode(column: "environment", as: String.self),
            type: try row.decode(column: "type", as: String.self),
            subtype: try row.decode(column: "subtype", as: String?.self),
            transactionId: try row.decode(column: "transaction_id", as: Int64?.self),
            originalId: try row.decode(column: "original_id", as: Int64?.self),
            signedMs: try row.decode(column: "signed_ms", as: Int64.self),
            bodyKey: try row.decode(column: "body_key", as: String.self),
            body: try row.decode(column: "body", as: String.self),
            transactionJSON: try row.decode(column: "transaction_json", as: String?.self),
            renewalJSON: try row.decode(column: "renewal_json", as: String?.self),
            testToken: try row.decode(column: "test_token", as: String?.self),
            nextAttemptMs: try row.decode(column: "next_attempt_ms", as: Int64?.self),
            attemptCount: try row.decode(column: "attempt_count", as: Int.self),
            delivered: try row.decode(column: "delivered", as: Int.self) != 0,
            attempts: try row.decode(column: "attempts", as: String.self))
    }

    /// An outbox row read through `readRows` (the delivery pass's reads).
    static func notification(raw row: StoreRow) throws -> NotificationRecord {
        NotificationRecord(
            seq: try row.int64("seq"), uuid: try row.string("uuid"), world: try row.string("world"),
            bundleId: try row.string("bundle_id"), customer: try row.string("customer"),
            environment: try row.string("environment"), type: try row.string("type"), subtype: try row.optionalString("subtype"),
            transactionId: try row.optionalInt64("transaction_id"), originalId: try row.optionalInt64("original_id"),
            signedMs: try row.int64("signed_ms"), bodyKey: try row.string("body_key"), body: try row.string("body"),
            transactionJSON: try row.optionalString("transaction_json"), renewalJSON: try row.optionalString("renewal_json"),
            testToken: try row.optionalString("test_token"), nextAttemptMs: try row.optionalInt64("next_attempt_ms"),
            attemptCount: Int(try row.int64("attempt_count")), delivered: try row.int64("delivered") != 0,
            attempts: try row.string("attempts"))
    }
}
