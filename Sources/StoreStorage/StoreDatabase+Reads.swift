import SQLKit

/// Reads. All values are bound parameters; every query is served by an index.
extension StoreDatabase {
    /// A store-wide setting (such as the signing keys or an app's shared secret); nil when unset.
    public func meta(_ key: String) async throws -> String? {
        try await readSQL.raw("SELECT value FROM meta WHERE key = \(bind: key)")
            .first(decodingColumn: "value", as: String.self)
    }

    /// Every registered app, by bundle ID: how a CLI command learns which apps a server registered.
    public func apps() async throws -> [AppRecord] {
        try await readSQL.raw("SELECT bundle_id, app_apple_id, environment, name, catalog FROM apps ORDER BY bundle_id")
            .all().map {
                AppRecord(
                    bundleId: try $0.decode(column: "bundle_id", as: String.self),
                    appAppleId: try $0.decode(column: "app_apple_id", as: Int64.self),
                    environment: try $0.decode(column: "environment", as: String.self),
                    name: try $0.decode(column: "name", as: String.self),
                    catalogJSON: try $0.decode(column: "catalog", as: String.self))
            }
    }

    /// The account, or nil when the world has never seen the name.
    public func customer(world: String, name: String) async throws -> CustomerRecord? {
        try await readSQL.raw("""
            SELECT world, name, storefront, locale, created_ms FROM customers
            WHERE world = \(bind: world) AND name = \(bind: name)
            """).first().map(Self.customer(from:))
    }

    /// The customer's copy of the app; nil until one was made.
    public func appTransaction(world: String, bundleId: String, customer: String) async throws -> AppTransactionRecord? {
        try await readSQL.raw("""
            SELECT * FROM app_transactions
            WHERE world = \(bind: world) AND bundle_id = \(bind: bundleId) AND customer = \(bind: customer)
            """).first().map {
                AppTransactionRecord(
                    world: try $0.decode(column: "world", as: String.self),
                    bundleId: try $0.decode(column: "bundle_id", as: String.self),
                    customer: try $0.decode(column: "customer", as: String.self),
                    appTransactionId: try $0.decode(column: "app_transaction_id", as: String.self),
                    applicationVersion: try $0.decode(column: "application_version", as: String.self),
                    originalApplicationVersion: try $0.decode(column: "original_application_version", as: String.self),
                    originalPurchaseMs: try $0.decode(column: "original_purchase_ms", as: Int64.self),
                    originalPlatform: try $0.decode(column: "original_platform", as: String.self),
                    createdMs: try $0.decode(column: "created_ms", as: Int64.self))
            }
    }

    /// A customer's transactions for one app, oldest change first.
    public func transactions(world: String, bundleId: String, customer: String) async throws -> [TransactionRecord] {
        try await readRows(
            "SELECT * FROM transactions WHERE world = ? AND bundle_id = ? AND customer = ? ORDER BY seq",
            [.text(world), .text(bundleId), .text(customer)], decode: Self.transaction(raw:))
    }

    /// One transaction by ID, whatever its world: callers check `world` themselves.
    public func transaction(id: Int64) async throws -> TransactionRecord? {
        try await readRows("SELECT * FROM transactions WHERE id = ?", [.integer(Int(id))], decode: Self.transaction(raw:)).first
    }

    /// A customer's subscription chains in one app, by original transaction ID.
    public func subscriptions(world: String, bundleId: String, customer: String) async throws -> [SubscriptionRecord] {
        try await readRows(
            "SELECT * FROM subscriptions WHERE world = ? AND bundle_id = ? AND customer = ?",
            [.text(world), .text(bundleId), .text(customer)], decode: Self.subscription(raw:)
        ).sorted { $0.originalId < $1.originalId }
        // Sorted here, not in SQL: with ORDER BY original_id SQLite prefers the primary key and
        // scans every subscription of the world (a purchase got slower with each customer).
    }

    /// One chain by its original transaction ID.
    public func subscription(world: String, originalId: Int64) async throws -> SubscriptionRecord? {
        try await readSQL.raw("""
            SELECT * FROM subscriptions WHERE world = \(bind: world) AND original_id = \(bind: originalId)
            """).first().map(Self.subscription(from:))
    }

    /// Every chain of a world with an event still to come, soonest first: the scheduler's agenda.
    public func scheduledSubscriptions(world: String) async throws -> [SubscriptionRecord] {
        try await readRows(
            "SELECT * FROM subscriptions WHERE world = ? AND next_event_ms IS NOT NULL ORDER BY next_event_ms",
            [.text(world)], decode: Self.subscription(raw:))
    }

    static func subscription(from row: any SQLRow) throws -> SubscriptionRecord {
        SubscriptionRecord(
            world: try row.decode(column: "world", as: String.self),
            originalId: try row.decode(column: "original_id", as: Int64.self),
            bundleId: try row.decode(column: "bundle_id", as: String.self),
            customer: try row.decode(column: "customer", as: String.self),
            groupId: try row.decode(column: "group_id", as: String.self),
            productId: try row.decode(column: "product_id", as: String.self),
            status: try row.decode(column: "status", as: Int.self),
            nextEventMs: try row.decode(column: "next_event_ms", as: Int64?.self),
            version: try row.decode(column: "version", as: Int64.self),
            state: try row.decode(column: "state", as: String.self),
            updatedMs: try row.decode(column: "updated_ms", as: Int64.self))
    }

    /// The highest transaction ID and change number in use, so a restarted store continues after them.
    public func highWaterMarks() async throws -> (transactionId: Int64, seq: Int64) {
        func max(_ sql: SQLQueryString) async throws -> Int64 {
            let row = try await readSQL.raw(sql).first()
            return try row.flatMap { try $0.decodeNil(column: "m") ? nil : $0.decode(column: "m", as: Int64.self) } ?? 0
        }
        let id = Swift.max(try await max("SELECT MAX(id) AS m FROM transactions"),
                           try await max("SELECT MAX(original_id) AS m FROM subscriptions"))
        let appTransactionIds = try await readSQL.raw("SELECT app_transaction_id FROM app_transactions").all()
            .compactMap { try? $0.decode(column: "app_transaction_id", as: String.self) }.compactMap(Int64.init).max() ?? 0
        let seq = Swift.max(try await max("SELECT MAX(seq) AS m FROM transactions"),
                            try await max("SELECT MAX(version) AS m FROM subscriptions"),
                            try await max("SELECT MAX(seq) AS m FROM lifecycle_events"))
        return (Swift.max(id, appTransactionIds), seq)
    }

    /// Registers an app, or updates its row in place, in a transaction of its own.
    public func upsertApp(_ app: AppRecord) async throws {
        try await perform { sql in try await sql.raw("""
            INSERT INTO apps (bundle_id, app_apple_id, environment, name, catalog)
            VALUES (\(bind: app.bundleId), \(bind: app.appAppleId), \(bind: app.environment), \(bind: app.name), \(bind: app.catalogJSON))
            ON CONFLICT (bundle_id) DO UPDATE SET app_apple_id = excluded.app_apple_id,
              environment = excluded.environment, name = excluded.name, catalog = excluded.catalog
            """).run() }
    }

    static func customer(from row: any SQLRow) throws -> CustomerRecord {
        CustomerRecord(
            world: try row.decode(column: "world", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            storefront: try row.decode(column: "storefront", as: String.self),
            locale: try row.decode(column: "locale", as: String.self),
            createdMs: try row.decode(column: "created_ms", as: Int64.self))
    }

    static func transaction(from row: any SQLRow) throws -> TransactionRecord {
        TransactionRecord(
            id: try row.decode(column: "id", as: Int64.self),
            world: try row.decode(column: "world", as: String.self),
            seq: try row.decode(column: "seq", as: Int64.self),
            originalId: try row.decode(column: "original_id", as: Int64.self),
            bundleId: try row.decode(column: "bundle_id", as: String.self),
            customer: try row.decode(column: "customer", as: String.self),
            productId: try row.decode(column: "product_id", as: String.self),
            productKind: try row.decode(column: "product_kind", as: String.self),
            groupId: try row.decode(column: "group_id", as: String?.self),
            purchaseMs: try row.decode(column: "purchase_ms", as: Int64.self),
            expiresMs: try row.decode(column: "expires_ms", as: Int64?.self),
            revokedMs: try row.decode(column: "revoked_ms", as: Int64?.self),
            finished: try row.decode(column: "finished", as: Int.self) != 0,
            orderId: try row.decode(column: "order_id", as: String.self),
            ownership: try row.decode(column: "ownership", as: String.self),
            payload: try row.decode(column: "payload", as: String.self))
    }
}

extension StoreDatabase {
    /// A world's transactions in change order after `afterSeq`: what changed since a point, for
    /// feeds such as `Transaction.updates` and for bulk work.
    public func transactionsChanged(world: String, afterSeq: Int64, limit: Int) async throws -> [TransactionRecord] {
        // `+world` (SQLite only): SQLite would otherwise pick an index led by `world`, read every
        // transaction of the world and sort them on each page; this walks `transactions_seq`.
        // PostgreSQL's planner weighs both indexes itself.
        try await readRows(
            dialect == .sqlite
                ? "SELECT * FROM transactions WHERE +world = ? AND seq > ? ORDER BY seq LIMIT ?"
                : "SELECT * FROM transactions WHERE world = ? AND seq > ? ORDER BY seq LIMIT ?",
            [.text(world), .integer(Int(afterSeq)), .integer(limit)], decode: Self.transaction(raw:))
    }
}
