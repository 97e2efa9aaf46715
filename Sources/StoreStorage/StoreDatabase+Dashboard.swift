import SQLKit

/// A transaction's span of time without its payload: the dashboard's timelines read thousands.
public struct TransactionSpanRecord: Sendable, Equatable {
    /// The transaction's ID; `transactions(ids:)` reads full rows by it when a payload is needed.
    public var id: Int64
    /// Groups the spans of one subscription chain.
    public var originalId: Int64
    /// The product bought, so spans can be told apart without the payload.
    public var productId: String
    /// The subscription group; nil for products outside one.
    public var groupId: String?
    /// Where the span starts.
    public var purchaseMs: Int64
    /// Where it ends; nil for purchases that never expire.
    public var expiresMs: Int64?
    /// When it was refunded or revoked; nil otherwise.
    public var revokedMs: Int64?
}

/// A run of one subscription's periods, counted by SQL: consecutive periods of one product, each
/// starting no later than the previous one ended, none revoked; a revoked period is a run of its
/// own. A customer renewed monthly for years is one run, not a thousand rows.
public struct SubscriptionRunRecord: Sendable, Equatable {
    /// The chain the run belongs to.
    public var originalId: Int64
    /// The one product all the run's periods share: a change of product starts a new run.
    public var productId: String
    /// How many periods (transactions) the run holds.
    public var periods: Int
    /// Lowest transaction ID in the run: its first period.
    public var firstId: Int64
    /// Highest transaction ID in the run: its latest period.
    public var lastId: Int64
    /// Purchase date of the run's first period.
    public var startMs: Int64
    /// Where the run's last period starts.
    public var lastStartMs: Int64
    /// The latest expiry among its periods: where the run ends.
    public var endMs: Int64
    /// Set when the run is a revoked period, which is always a run of its own.
    public var revokedMs: Int64?
}

/// What the web Transaction Manager (`/manage`) reads and the few rows it changes directly:
/// customer search, a world's transactions for its charts, "send now" on a waiting
/// notification, and revoking a Server API key. Every value is a bound parameter.
extension StoreDatabase {
    /// A world's customers whose name contains `text` (all when nil), by name, at most `limit`.
    public func customers(world: String, nameContaining text: String?, limit: Int) async throws -> [CustomerRecord] {
        var sql = SQLQueryString("SELECT world, name, storefront, locale, created_ms FROM customers WHERE world = ")
        sql.appendInterpolation(bind: world)
        if let text, !text.isEmpty {
            // instr()/strpos() rather than LIKE: the text is matched as it is, `%` and `_` included.
            let (open, close) = dialect == .sqlite ? ("instr(lower(name), lower(", ")) > 0") : ("strpos(lower(name), lower(", ")) > 0")
            sql.appendLiteral(" AND " + open)
            sql.appendInterpolation(bind: text)
            sql.appendLiteral(close)
        }
        sql.appendLiteral(" ORDER BY name LIMIT ")
        sql.appendInterpolation(bind: max(0, limit))
        return try await readSQL.raw(sql).all().map(Self.customer(from:))
    }

    /// A customer's transactions for one app as spans of time (no payload), in no particular order.
    public func transactionSpans(world: String, bundleId: String, customer: String) async throws -> [TransactionSpanRecord] {
        try await readRows(
            "SELECT id, original_id, product_id, group_id, purchase_ms, expires_ms, revoked_ms FROM transactions WHERE world = ? AND bundle_id = ? AND customer = ?",
            [.text(world), .text(bundleId), .text(customer)]) { row in
                TransactionSpanRecord(
                    id: try row.int64("id"), originalId: try row.int64("original_id"), productId: try row.string("product_id"),
                    groupId: try row.optionalString("group_id"), purchaseMs: try row.int64("purchase_ms"),
                    expiresMs: try row.optionalInt64("expires_ms"), revokedMs: try row.optionalInt64("revoked_ms"))
            }
    }

    /// One page of a customer's transactions in one app, newest purchase first (ties: the higher
    /// ID first), and how many they have in all, in one query: the count is index-only, SQL picks
    /// the page's IDs from the narrow columns and only those rows are read whole.
    public func transactionPage(world: String, bundleId: String, customer: String, offset: Int, limit: Int) async throws -> (total: Int, rows: [TransactionRecord]) {
        let found = try await readRows("""
            SELECT counted.total AS total, t.* FROM (
                SELECT COUNT(*) AS total FROM transactions WHERE world = ? AND bundle_id = ? AND customer = ?) AS counted
            LEFT JOIN transactions AS t ON t.id IN (
                SELECT id FROM transactions WHERE world = ? AND bundle_id = ? AND customer = ?
                ORDER BY purchase_ms DESC, id DESC LIMIT ? OFFSET ?)
            ORDER BY t.purchase_ms DESC, t.id DESC
            """, [.text(world), .text(bundleId), .text(customer), .text(world), .text(bundleId), .text(customer), .integer(max(0, limit)), .integer(max(0, offset))]) { row in
                (Int(try row.int64("total")), try row.optionalInt64("id") == nil ? nil : try Self.transaction(raw: row))
            }
        return (found.first?.0 ?? 0, found.compactMap(\.1))
    }

    /// A customer's subscription periods in one app as runs (see `SubscriptionRunRecord`), by
    /// original transaction, oldest run first. The gaps-and-islands grouping is done by SQL window
    /// functions (SQLite 3.25+ and PostgreSQL): a thousand renewals come back as a few rows.
    public func subscriptionRuns(world: String, bundleId: String, customer: String) async throws -> [SubscriptionRunRecord] {
        try await readRows("""
            SELECT original_id, product_id, COUNT(*) AS periods, MIN(id) AS first_id, MAX(id) AS last_id,
                   MIN(purchase_ms) AS start_ms, MAX(purchase_ms) AS last_start_ms, MAX(expires_ms) AS end_ms, MAX(revoked_ms) AS revoked_ms
            FROM (
                SELECT id, original_id, product_id, purchase_ms, expires_ms, revoked_ms,
                       SUM(brk) OVER (PARTITION BY original_id ORDER BY purchase_ms, id ROWS UNBOUNDED PRECEDING) AS run
                FROM (
                    SELECT id, original_id, product_id, purchase_ms, expires_ms, revoked_ms,
                           CASE WHEN revoked_ms IS NOT NULL
                                  OR LAG(id) OVER w IS NULL
                                  OR LAG(revoked_ms) OVER w IS NOT NULL
                                  OR LAG(product_id) OVER w <> product_id
                                  OR LAG(expires_ms) OVER w < purchase_ms
                                THEN 1 ELSE 0 END AS brk
                    FROM transactions
                    WHERE world = ? AND bundle_id = ? AND customer = ? AND expires_ms IS NOT NULL
                    WINDOW w AS (PARTITION BY original_id ORDER BY purchase_ms, id)
                ) AS marked
            ) AS numbered
            GROUP BY original_id, run, product_id
            ORDER BY original_id, MIN(purchase_ms)
            """, [.text(world), .text(bundleId), .text(customer)]) { row in
                SubscriptionRunRecord(
                    originalId: try row.int64("original_id"), productId: try row.string("product_id"), periods: Int(try row.int64("periods")),
                    firstId: try row.int64("first_id"), lastId: try row.int64("last_id"), startMs: try row.int64("start_ms"),
                    lastStartMs: try row.int64("last_start_ms"), endMs: try row.int64("end_ms"), revokedMs: try row.optionalInt64("revoked_ms"))
            }
    }

    /// The transactions with these IDs (at most a page of them), in no particular order.
    public func transactions(ids: [Int64]) async throws -> [TransactionRecord] {
        guard !ids.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
        return try await readRows("SELECT * FROM transactions WHERE id IN (\(marks))", ids.map { StoreValue($0) }, decode: Self.transaction(raw:))
    }

    /// A world's transactions whose payload carries `appAccountToken` (a UUID, as Apple stores it).
    public func transactions(world: String, appAccountToken token: String, limit: Int = 200) async throws -> [TransactionRecord] {
        try await readRows(
            "SELECT * FROM transactions WHERE world = ? AND \(dialect.contains("payload", "?")) ORDER BY id LIMIT ?",
            [.text(world), .text("\"appAccountToken\":\"\(token)\""), .integer(max(0, limit))], decode: Self.transaction(raw:))
    }

    /// A world's transactions by purchase date, at most `limit` (the newest are kept).
    public func worldTransactions(world: String, limit: Int) async throws -> [TransactionRecord] {
        try await readRows(
            "SELECT * FROM (SELECT * FROM transactions WHERE world = ? ORDER BY purchase_ms DESC, id DESC LIMIT ?) AS newest ORDER BY purchase_ms, id",
            [.text(world), .integer(max(0, limit))], decode: Self.transaction(raw:))
    }

    /// A world's latest App Store events, newest first.
    public func latestEvents(world: String, limit: Int) async throws -> [EventRecord] {
        let oldestFirst = try await readSQL.raw("""
            SELECT * FROM (SELECT * FROM lifecycle_events WHERE world = \(bind: world) ORDER BY seq DESC LIMIT \(bind: max(0, limit))) AS newest ORDER BY seq
            """).all()
        return try oldestFirst.map(Self.event(from:)).reversed()
    }

    static func event(from row: any SQLRow) throws -> EventRecord {
        EventRecord(
            seq: try row.decode(column: "seq", as: Int64.self), world: try row.decode(column: "world", as: String.self),
            bundleId: try row.decode(column: "bundle_id", as: String.self), customer: try row.decode(column: "customer", as: String.self),
            type: try row.decode(column: "type", as: String.self), subtype: try row.decode(column: "subtype", as: String?.self),
            transactionId: try row.decode(column: "transaction_id", as: Int64?.self), originalId: try row.decode(column: "original_id", as: Int64?.self),
            atMs: try row.decode(column: "at_ms", as: Int64.self), data: try row.decode(column: "data", as: String?.self))
    }

    /// Moves a waiting notification's next attempt to `atMs`; false when it is delivered or unknown.
    public func rescheduleNotification(world: String, seq: Int64, atMs: Int64) async throws -> Bool {
        guard let record = try await notification(seq: seq), record.world == world, !record.delivered, record.nextAttemptMs != nil else {
            return false
        }
        try await perform(fencing: [world]) { sql in
            try await sql.raw("""
                UPDATE notifications SET next_attempt_ms = \(bind: atMs)
                WHERE seq = \(bind: seq) AND world = \(bind: world) AND delivered = 0 AND next_attempt_ms IS NOT NULL
                """).run()
        }
        return true
    }

    /// Removes a Server API key: tokens signed with it are refused from then on.
    public func deleteAPIKey(id: String) async throws {
        try await perform { sql in
            try await sql.raw("DELETE FROM api_keys WHERE key_id = \(bind: id)").run()
        }
    }
}
