import SQLKit

/// One page of a customer's transaction history, as the App Store Server API asks for it.
/// Filters AND together; a list filter matches any of its values. Served by the
/// `(world, bundle_id, customer, seq)` index, so a page costs O(page) for unfiltered history.
public struct TransactionPageQuery: Sendable, Equatable {
    /// With `bundleId` and `customer`, the prefix of the index that serves the page.
    public var world: String
    /// The app whose transactions are listed.
    public var bundleId: String
    /// The customer whose transactions are listed.
    public var customer: String
    /// Exclusive cursor on `seq`: rows after it in the chosen direction.
    public var afterSeq: Int64?
    /// Apple's `sort=DESCENDING`: newest change first, the cursor then read as `seq <`.
    public var descending: Bool
    /// Apple's `productId` filter: any of these; empty for all.
    public var productIds: [String]
    /// `product_kind` values (`Consumable`, `NonConsumable`, `NonRenewingSubscription`, `RecurringSubscription`).
    public var productKinds: [String]
    /// Apple's `subscriptionGroupIdentifier` filter: any of these; empty for all.
    public var groupIds: [String]
    /// `purchase_ms >= startMs`
    public var startMs: Int64?
    /// `purchase_ms < endMs`
    public var endMs: Int64?
    /// Apple's `inAppOwnershipType` filter (`PURCHASED` or `FAMILY_SHARED`); nil for both.
    public var ownership: String?
    /// true: only revoked; false: only not revoked.
    public var revoked: Bool?
    /// Leaves out consumables the app has finished (history v1).
    public var excludeFinishedConsumables: Bool
    /// At most this many rows; a negative value reads none.
    public var limit: Int

    /// Only the owner and `limit` are required; every filter is off by default.
    public init(
        world: String, bundleId: String, customer: String, afterSeq: Int64? = nil, descending: Bool = false,
        productIds: [String] = [], productKinds: [String] = [], groupIds: [String] = [], startMs: Int64? = nil,
        endMs: Int64? = nil, ownership: String? = nil, revoked: Bool? = nil, excludeFinishedConsumables: Bool = false,
        limit: Int
    ) {
        self.world = world
        self.bundleId = bundleId
        self.customer = customer
        self.afterSeq = afterSeq
        self.descending = descending
        self.productIds = productIds
        self.productKinds = productKinds
        self.groupIds = groupIds
        self.startMs = startMs
        self.endMs = endMs
        self.ownership = ownership
        self.revoked = revoked
        self.excludeFinishedConsumables = excludeFinishedConsumables
        self.limit = limit
    }
}

/// The latest consumption information a developer sent for a transaction.
public struct ConsumptionInfoRecord: Sendable, Equatable {
    /// With `transactionId`, the key: a later report replaces the earlier one.
    public var world: String
    /// The transaction the information is about (the request names it in its path).
    public var transactionId: Int64
    /// 1 or 2: which Send Consumption Information endpoint it came through.
    public var version: Int
    /// The request body as JSON.
    public var body: String
    /// When it arrived.
    public var receivedMs: Int64
    /// Stored by `saveConsumptionInfo`, replacing any earlier report for the transaction.
    public init(world: String, transactionId: Int64, version: Int, body: String, receivedMs: Int64) {
        self.world = world
        self.transactionId = transactionId
        self.version = version
        self.body = body
        self.receivedMs = receivedMs
    }
}

extension StoreDatabase {
    /// One page of Get Transaction History for `query`, in `seq` order (or reversed), payloads included.
    public func transactionPage(_ query: TransactionPageQuery) async throws -> [TransactionRecord] {
        let (sql, binds) = Self.pageSQL(query, columns: "*")
        return try await readRows(sql, binds, decode: Self.transaction(raw:))
    }

    /// The change numbers of the page `transactionPage` would return, in its order, for the
    /// customer whose transaction `id` is in the query's world and app (`query.customer` is not
    /// read): one statement, whose owner lookup is a scalar subquery on the primary key. Unfiltered,
    /// the page is read from the `(world, bundle_id, customer, seq)` index alone (a covering index
    /// on SQLite): no row and no payload is touched, so a page whose signed transactions are cached
    /// costs the same at 10 transactions as at 10,000. Empty both when the page is empty and when
    /// `id` is not such a transaction: the caller tells the two apart the slow way.
    public func transactionPageSeqs(openedBy id: Int64, _ query: TransactionPageQuery) async throws -> [Int64] {
        let (sql, binds) = Self.pageSQL(
            query, columns: "seq",
            customer: ("(SELECT customer FROM transactions WHERE id = ? AND world = ? AND bundle_id = ?)",
                       [.init(id), .text(query.world), .text(query.bundleId)]))
        return try await readRows(sql, binds) { try $0.int64("seq") }
    }

    /// Whose transaction an ID is: its world, app and customer, without reading its payload.
    public func transactionOwner(id: Int64) async throws -> (world: String, bundleId: String, customer: String)? {
        try await readRows("SELECT world, bundle_id, customer FROM transactions WHERE id = ?", [.integer(Int(id))]) {
            (world: try $0.string("world"), bundleId: try $0.string("bundle_id"), customer: try $0.string("customer"))
        }.first
    }

    /// The page's statement with `?` placeholders, built from fixed text: no value is spliced in.
    /// `customer` replaces `query.customer` with an expression and its binds.
    static func pageSQL(
        _ query: TransactionPageQuery, columns: String, customer: (sql: String, binds: [StoreValue])? = nil
    ) -> (String, [StoreValue]) {
        let customer = customer ?? ("?", [.text(query.customer)])
        var sql = "SELECT \(columns) FROM transactions WHERE world = ? AND bundle_id = ? AND customer = " + customer.sql
        var binds: [StoreValue] = [.text(query.world), .text(query.bundleId)] + customer.binds
        if let after = query.afterSeq {
            sql += query.descending ? " AND seq < ?" : " AND seq > ?"
            binds.append(.init(after))
        }
        func appendIn(_ column: String, _ values: [String]) {
            guard !values.isEmpty else { return }
            sql += " AND \(column) IN (" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")"
            binds += values.map(StoreValue.text)
        }
        appendIn("product_id", query.productIds)
        appendIn("product_kind", query.productKinds)
        appendIn("group_id", query.groupIds)
        if let start = query.startMs {
            sql += " AND purchase_ms >= ?"
            binds.append(.init(start))
        }
        if let end = query.endMs {
            sql += " AND purchase_ms < ?"
            binds.append(.init(end))
        }
        if let ownership = query.ownership {
            sql += " AND ownership = ?"
            binds.append(.text(ownership))
        }
        switch query.revoked {
        case true?: sql += " AND revoked_ms IS NOT NULL"
        case false?: sql += " AND revoked_ms IS NULL"
        case nil: break
        }
        if query.excludeFinishedConsumables {
            sql += " AND NOT (product_kind = 'Consumable' AND finished = 1)"
        }
        sql += query.descending ? " ORDER BY seq DESC LIMIT ?" : " ORDER BY seq LIMIT ?"
        binds.append(.integer(max(0, query.limit)))
        return (sql, binds)
    }

    /// Revoked transactions of a customer in ascending (revocation time, id) order, after a cursor.
    public func revokedTransactionPage(
        world: String, bundleId: String, customer: String, after: (revokedMs: Int64, id: Int64)?, limit: Int
    ) async throws -> [TransactionRecord] {
        var sql = SQLQueryString("SELECT * FROM transactions WHERE world = ")
        sql.appendInterpolation(bind: world)
        sql.appendLiteral(" AND bundle_id = ")
        sql.appendInterpolation(bind: bundleId)
        sql.appendLiteral(" AND customer = ")
        sql.appendInterpolation(bind: customer)
        sql.appendLiteral(" AND revoked_ms IS NOT NULL")
        if let after {
            sql.appendLiteral(" AND (revoked_ms > ")
            sql.appendInterpolation(bind: after.revokedMs)
            sql.appendLiteral(" OR (revoked_ms = ")
            sql.appendInterpolation(bind: after.revokedMs)
            sql.appendLiteral(" AND id > ")
            sql.appendInterpolation(bind: after.id)
            sql.appendLiteral("))")
        }
        sql.appendLiteral(" ORDER BY revoked_ms, id LIMIT ")
        sql.appendInterpolation(bind: max(0, limit))
        return try await readSQL.raw(sql).all().map(Self.transaction(from:))
    }

    /// The transactions of one order (an App Store invoice), oldest first.
    public func transactions(world: String, orderId: String) async throws -> [TransactionRecord] {
        try await readSQL.raw("""
            SELECT * FROM transactions WHERE world = \(bind: world) AND order_id = \(bind: orderId) ORDER BY id
            """).all().map(Self.transaction(from:))
    }

    /// Every transaction of a subscription chain or purchase (same original transaction).
    public func transactions(originalId: Int64) async throws -> [TransactionRecord] {
        try await readSQL.raw("SELECT * FROM transactions WHERE original_id = \(bind: originalId) ORDER BY id")
            .all().map(Self.transaction(from:))
    }

    /// The app copy an `appTransactionId` names, in a world.
    public func appTransaction(world: String, appTransactionId: String) async throws -> AppTransactionRecord? {
        guard let row = try await readSQL.raw("""
            SELECT bundle_id, customer FROM app_transactions
            WHERE world = \(bind: world) AND app_transaction_id = \(bind: appTransactionId)
            """).first()
        else { return nil }
        return try await appTransaction(
            world: world, bundleId: try row.decode(column: "bundle_id", as: String.self),
            customer: try row.decode(column: "customer", as: String.self))
    }

    /// Keeps the latest consumption information per transaction (a single autocommit upsert).
    public func saveConsumptionInfo(_ info: ConsumptionInfoRecord) async throws {
        try await perform(fencing: [info.world]) { sql in try await sql.raw("""
            INSERT INTO consumption_info (world, transaction_id, version, body, received_ms)
            VALUES (\(bind: info.world), \(bind: info.transactionId), \(bind: info.version), \(bind: info.body), \(bind: info.receivedMs))
            ON CONFLICT (world, transaction_id) DO UPDATE SET version = excluded.version, body = excluded.body,
              received_ms = excluded.received_ms
            """).run() }
    }

    /// The latest consumption information for a transaction; nil when the developer sent none.
    public func consumptionInfo(world: String, transactionId: Int64) async throws -> ConsumptionInfoRecord? {
        try await readSQL.raw("""
            SELECT * FROM consumption_info WHERE world = \(bind: world) AND transaction_id = \(bind: transactionId)
            """).first().map {
                ConsumptionInfoRecord(
                    world: try $0.decode(column: "world", as: String.self),
                    transactionId: try $0.decode(column: "transaction_id", as: Int64.self),
                    version: try $0.decode(column: "version", as: Int.self),
                    body: try $0.decode(column: "body", as: String.self),
                    receivedMs: try $0.decode(column: "received_ms", as: Int64.self))
            }
    }
}
