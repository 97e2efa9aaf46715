import SQLKit
import StoreShared

/// Who owns each world when many instances share one PostgreSQL (docs/deploy.md).
///
/// A lease row names a world's owner, the address other instances forward its requests to, an
/// expiry and an epoch. Taking a world over (its lease expired, or it was handed back) raises the
/// epoch; every write of the world carries the epoch its writer holds, and the transaction that
/// writes it first checks the lease row still has that epoch (`checkLeases`): a writer that
/// paused past its lease can never write over its successor. Times come from the database's
/// clock, so instances on machines whose clocks disagree still agree on expiry.
///
/// Each statement runs alone (autocommit) on a reading connection, never on the group
/// committer's: a heartbeat must not wait behind a batch of purchases. The heartbeat's renewal
/// has a connection of its own, so it does not wait behind reads either.
extension StoreDatabase {
    /// The database's own clock in milliseconds, as SQL.
    static let databaseNowMs = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"

    /// Leases need a database several processes share: PostgreSQL. A SQLite store is one process.
    public var supportsManyInstances: Bool { dialect == .postgres }

    /// Takes the world when nobody holds it (no lease, or an expired one), or renews it for its
    /// owner; the epoch rises on every grant. Returns the lease as it is afterwards, granted or not.
    public func acquireLease(world: String, owner: String, address: String, ttlMs: Int64) async throws -> WorldLease {
        // Handed back between the two statements: try again (a few times; each is one round trip).
        for _ in 1...3 {
            if let lease = try await tryAcquireLease(world: world, owner: owner, address: address, ttlMs: ttlMs) { return lease }
        }
        throw StorageUnavailable("the lease of world \(world) kept changing hands while being taken; try again")
    }

    private func tryAcquireLease(world: String, owner: String, address: String, ttlMs: Int64) async throws -> WorldLease? {
        let now = Self.databaseNowMs
        let granted = try await readSQL.raw("""
            INSERT INTO world_leases AS l (world, owner, address, epoch, expires_ms)
            VALUES (\(bind: world), \(bind: owner), \(bind: address), 1, \(unsafeRaw: now) + \(bind: ttlMs))
            ON CONFLICT (world) DO UPDATE SET owner = excluded.owner, address = excluded.address,
                epoch = l.epoch + 1, expires_ms = excluded.expires_ms
            WHERE l.expires_ms < \(unsafeRaw: now) OR l.owner = excluded.owner
            RETURNING world, owner, address, epoch, expires_ms, 0 AS expired
            """).first().map(Self.lease)
        if let granted { return granted }
        return try await lease(world: world)
    }

    /// The world's lease, if any (expired or not).
    public func lease(world: String) async throws -> WorldLease? {
        try await readSQL.raw("""
            SELECT world, owner, address, epoch, expires_ms,
                CASE WHEN expires_ms < \(unsafeRaw: Self.databaseNowMs) THEN 1 ELSE 0 END AS expired
            FROM world_leases WHERE world = \(bind: world)
            """).first().map(Self.lease)
    }

    /// Extends every lease `owner` still holds (not expired, not handed back) and records the
    /// instance as alive; returns the worlds (with epochs) it still holds. A world missing from the
    /// answer was taken over, handed back, or expired unrenewed.
    public func renewLeases(owner: String, address: String, ttlMs: Int64) async throws -> [String: Int64] {
        let now = Self.databaseNowMs
        try await engine.leaseSQL.raw("""
            INSERT INTO store_instances (id, address, started_ms, heartbeat_ms)
            VALUES (\(bind: owner), \(bind: address), \(unsafeRaw: now), \(unsafeRaw: now))
            ON CONFLICT (id) DO UPDATE SET heartbeat_ms = excluded.heartbeat_ms, address = excluded.address
            """).run()
        let rows = try await engine.leaseSQL.raw("""
            UPDATE world_leases SET expires_ms = \(unsafeRaw: now) + \(bind: ttlMs), address = \(bind: address)
            WHERE owner = \(bind: owner) AND expires_ms >= \(unsafeRaw: now) RETURNING world, epoch
            """).all()
        var held: [String: Int64] = [:]
        for row in rows { held[try row.decode(column: "world", as: String.self)] = try row.decode(column: "epoch", as: Int64.self) }
        return held
    }

    /// Hands worlds back at once (all of them when `worlds` is nil), so another instance takes
    /// them on its next request instead of after the expiry; with all of them, the instance
    /// leaves the list of live instances. The row stays, expired: its epoch must keep rising, or
    /// the next owner would be granted an epoch a paused former owner still holds.
    public func releaseLeases(owner: String, worlds: [String]? = nil) async throws {
        if let worlds {
            for world in worlds {
                try await readSQL.raw("UPDATE world_leases SET expires_ms = 0 WHERE owner = \(bind: owner) AND world = \(bind: world)").run()
            }
        } else {
            try await readSQL.raw("UPDATE world_leases SET expires_ms = 0 WHERE owner = \(bind: owner)").run()
            try await readSQL.raw("DELETE FROM store_instances WHERE id = \(bind: owner)").run()
        }
    }

    /// Worlds nobody holds a live lease on (their owner died or handed them back), oldest first.
    public func unleasedWorlds() async throws -> [String] {
        try await readSQL.raw("""
            SELECT w.id FROM worlds w LEFT JOIN world_leases l ON l.world = w.id
            WHERE l.world IS NULL OR l.expires_ms < \(unsafeRaw: Self.databaseNowMs)
            ORDER BY w.created_ms, w.id
            """).all().map { try $0.decode(column: "id", as: String.self) }
    }

    /// The instances that sent a heartbeat within `withinMs`, with the worlds each holds.
    /// How many instances sent a heartbeat within `withinMs`: the fair share's divisor, read every
    /// heartbeat, so it counts rows instead of listing every lease as `liveInstances` does.
    public func liveInstanceCount(withinMs: Int64) async throws -> Int {
        let now = Self.databaseNowMs
        return try await readSQL.raw("""
            SELECT COUNT(*) AS n FROM store_instances WHERE heartbeat_ms > \(unsafeRaw: now) - \(bind: withinMs)
            """).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// The instances that sent a heartbeat within `withinMs`, earliest started first, each with the
    /// worlds it holds an unexpired lease on. Ages are measured by the database's clock.
    public func liveInstances(withinMs: Int64) async throws -> [StoreInstance] {
        let now = Self.databaseNowMs
        let instances = try await readSQL.raw("""
            SELECT id, address, started_ms, heartbeat_ms, \(unsafeRaw: now) AS now_ms FROM store_instances
            WHERE heartbeat_ms > \(unsafeRaw: now) - \(bind: withinMs) ORDER BY started_ms, id
            """).all()
        let leases = try await readSQL.raw("""
            SELECT world, owner, address, epoch, expires_ms,
                CASE WHEN expires_ms < \(unsafeRaw: now) THEN 1 ELSE 0 END AS expired
            FROM world_leases ORDER BY world
            """).all().map(Self.lease)
        return try instances.map { row in
            let id = try row.decode(column: "id", as: String.self)
            return StoreInstance(
                id: id, address: try row.decode(column: "address", as: String.self),
                startedMs: try row.decode(column: "started_ms", as: Int64.self),
                heartbeatAgeMs: try row.decode(column: "now_ms", as: Int64.self) - row.decode(column: "heartbeat_ms", as: Int64.self),
                worlds: leases.filter { $0.owner == id && !$0.expired }.map(\.world))
        }
    }

    /// Takes the next block of `size` transaction IDs and change numbers for this instance: above
    /// every block taken before and above `floor` (the highest values in the tables).
    public func takeIdentifierBlock(size: Int64, floor: (id: Int64, seq: Int64)) async throws -> (id: Int64, seq: Int64) {
        guard let row = try await readSQL.raw("""
            INSERT INTO id_blocks AS b (k, next_id, next_seq) VALUES (0, \(bind: floor.id + size), \(bind: floor.seq + size))
            ON CONFLICT (k) DO UPDATE SET next_id = GREATEST(b.next_id, \(bind: floor.id)) + \(bind: size),
                next_seq = GREATEST(b.next_seq, \(bind: floor.seq)) + \(bind: size)
            RETURNING next_id, next_seq
            """).first() else { throw StorageUnavailable("no identifier block was returned") }
        // The block is (end - size, end]: callers continue from its start.
        return (try row.decode(column: "next_id", as: Int64.self) - size, try row.decode(column: "next_seq", as: Int64.self) - size)
    }

    private static func lease(_ row: any SQLRow) throws -> WorldLease {
        WorldLease(
            world: try row.decode(column: "world", as: String.self), owner: try row.decode(column: "owner", as: String.self),
            address: try row.decode(column: "address", as: String.self), epoch: try row.decode(column: "epoch", as: Int64.self),
            expiresMs: try row.decode(column: "expires_ms", as: Int64.self), expired: try row.decode(column: "expired", as: Int64.self) != 0)
    }
}

/// A world's lease as the database holds it.
public struct WorldLease: Sendable, Equatable {
    /// The world the lease is for: one row per world, kept when expired so its epoch keeps rising.
    public var world: String
    /// The instance holding it (its ID in `store_instances`).
    public var owner: String
    /// Where the owner takes requests forwarded to it (its `--advertise-url`).
    public var address: String
    /// Raised on every grant; writes carry it and are refused once it has moved on (`LeaseLost`).
    public var epoch: Int64
    /// Expiry by the database's clock; 0 once the lease was handed back.
    public var expiresMs: Int64
    /// Worked out by the database when read, so callers never compare clocks.
    public var expired: Bool
}

/// A running instance, as its heartbeats show it.
public struct StoreInstance: Sendable, Equatable {
    /// The instance's ID: the `owner` of its leases.
    public var id: String
    /// Where it takes forwarded requests, as of its latest heartbeat.
    public var address: String
    /// When it first sent a heartbeat, by the database's clock.
    public var startedMs: Int64
    /// Time since its last heartbeat, both ends read from the database's clock, so instance clocks do not matter.
    public var heartbeatAgeMs: Int64
    /// The worlds it holds unexpired leases on.
    public var worlds: [String]
}
