import SQLKit

/// Worlds: isolated namespaces of customers, purchases, clock and settings.
extension StoreDatabase {
    /// Tables whose rows belong to a world (all carry a `world` column).
    static let worldTables = ["customers", "app_transactions", "transactions", "subscriptions", "lifecycle_events", "world_records", "notifications"]

    /// Every stored world, oldest first, with its creation time and settings text.
    public func worlds() async throws -> [(id: String, createdMs: Int64, config: String)] {
        try await readSQL.raw("SELECT id, created_ms, config FROM worlds ORDER BY created_ms, id").all().map {
            (try $0.decode(column: "id", as: String.self), try $0.decode(column: "created_ms", as: Int64.self),
             try $0.decode(column: "config", as: String.self))
        }
    }

    /// One world as stored: when it was made and its settings.
    public func storedWorld(id: String) async throws -> (createdMs: Int64, config: String)? {
        try await readSQL.raw("SELECT created_ms, config FROM worlds WHERE id = \(bind: id)").first().map {
            (try $0.decode(column: "created_ms", as: Int64.self), try $0.decode(column: "config", as: String.self))
        }
    }

    /// How many worlds exist, without reading their settings.
    public func worldCount() async throws -> Int {
        Int(try await readSQL.raw("SELECT COUNT(*) AS n FROM worlds").first(decodingColumn: "n", as: Int64.self) ?? 0)
    }

    /// One world's stored settings (what a world reloads after a failed write).
    public func worldConfig(id: String) async throws -> String? {
        try await readSQL.raw("SELECT config FROM worlds WHERE id = \(bind: id)").first(decodingColumn: "config", as: String.self)
    }

    /// - Parameter lease: with many instances, the writer's lease epoch (`LeaseCheck`).
    public func saveWorld(id: String, createdMs: Int64, config: String, lease: Int64? = nil) async throws {
        try await perform(fencing: [id], explicit: lease.map { [id: $0] } ?? [:]) { sql in
            try await sql.raw("""
                INSERT INTO worlds (id, created_ms, config) VALUES (\(bind: id), \(bind: createdMs), \(bind: config))
                ON CONFLICT (id) DO UPDATE SET config = excluded.config
                """).run()
        }
    }

    /// Removes every row of a world; with `keepWorld` the world itself (its clock and settings) stays.
    public func deleteWorldData(_ id: String, keepWorld: Bool, lease: Int64? = nil) async throws {
        try await perform(fencing: [id], explicit: lease.map { [id: $0] } ?? [:]) { sql in
            for table in Self.worldTables {
                try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE world = \(bind: id)").run()
            }
            if !keepWorld { try await sql.raw("DELETE FROM worlds WHERE id = \(bind: id)").run() }
        }
    }

    /// Removes a customer's transactions and subscriptions in one app of a world.
    public func deleteTransactions(world: String, bundleId: String, customer: String?) async throws {
        try await perform(fencing: [world]) { sql in
            for table in ["transactions", "subscriptions"] {
                if let customer {
                    try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE world = \(bind: world) AND bundle_id = \(bind: bundleId) AND customer = \(bind: customer)").run()
                } else {
                    try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE world = \(bind: world) AND bundle_id = \(bind: bundleId)").run()
                }
            }
        }
    }

    /// Deletes one transaction (the Transaction Manager's Delete) or, given the original ID of an
    /// auto-renewable subscription, the subscription: every transaction of its chain and its
    /// renewal state.
    public func deleteTransaction(world: String, id: Int64, subscription originalId: Int64?) async throws {
        try await perform(fencing: [world]) { sql in
            if let originalId {
                try await sql.raw("DELETE FROM transactions WHERE world = \(bind: world) AND original_id = \(bind: originalId)").run()
                try await sql.raw("DELETE FROM subscriptions WHERE world = \(bind: world) AND original_id = \(bind: originalId)").run()
            }
            try await sql.raw("DELETE FROM transactions WHERE world = \(bind: world) AND id = \(bind: id)").run()
        }
    }

    /// Every document of one kind in a world, by key.
    public func worldRecords(world: String, kind: String) async throws -> [WorldRecord] {
        try await readSQL.raw("""
            SELECT world, kind, key, value FROM world_records WHERE world = \(bind: world) AND kind = \(bind: kind) ORDER BY key
            """).all().map {
                WorldRecord(world: try $0.decode(column: "world", as: String.self), kind: try $0.decode(column: "kind", as: String.self),
                            key: try $0.decode(column: "key", as: String.self), value: try $0.decode(column: "value", as: String.self))
            }
    }

    /// Removes one document, fenced by the world's lease like every write of a world.
    public func deleteWorldRecord(world: String, kind: String, key: String) async throws {
        try await perform(fencing: [world]) { sql in
            try await sql.raw("DELETE FROM world_records WHERE world = \(bind: world) AND kind = \(bind: kind) AND key = \(bind: key)").run()
        }
    }

    /// A world's App Store events in order, after `afterSeq`.
    public func events(world: String, afterSeq: Int64 = 0, limit: Int = 1000) async throws -> [EventRecord] {
        try await readSQL.raw("""
            SELECT * FROM lifecycle_events WHERE world = \(bind: world) AND seq > \(bind: afterSeq) ORDER BY seq LIMIT \(bind: limit)
            """).all().map {
                EventRecord(
                    seq: try $0.decode(column: "seq", as: Int64.self), world: try $0.decode(column: "world", as: String.self),
                    bundleId: try $0.decode(column: "bundle_id", as: String.self), customer: try $0.decode(column: "customer", as: String.self),
                    type: try $0.decode(column: "type", as: String.self), subtype: try $0.decode(column: "subtype", as: String?.self),
                    transactionId: try $0.decode(column: "transaction_id", as: Int64?.self),
                    originalId: try $0.decode(column: "original_id", as: Int64?.self),
                    atMs: try $0.decode(column: "at_ms", as: Int64.self), data: try $0.decode(column: "data", as: String?.self))
            }
    }
}
