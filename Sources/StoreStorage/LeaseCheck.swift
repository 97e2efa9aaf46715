import SQLKit
import StoreModel
import StoreShared

/// The fencing check of many instances: inside the transaction that writes a world, its lease must
/// still carry the epoch the writer was granted. `FOR KEY SHARE` holds the lease rows until the
/// transaction ends, so a takeover (which changes the epoch, a key column: `LeaseSchema.epochKey`)
/// waits for the write or comes first and makes it fail: never both. A heartbeat, which only
/// extends the expiry, does not wait for the write.
enum LeaseCheck {
    static func require(_ leases: [String: Int64], on sql: any SQLDatabase) async throws {
        guard !leases.isEmpty else { return }
        let worlds = Array(leases.keys)
        let epochs = worlds.map { leases[$0]! }
        let current = try await sql.raw("""
            SELECT l.world FROM world_leases l
            JOIN unnest(\(bind: worlds)::text[], \(bind: epochs)::bigint[]) AS f(world, epoch)
              ON l.world = f.world AND l.epoch = f.epoch
            FOR KEY SHARE OF l
            """).all().map { try $0.decode(column: "world", as: String.self) }
        let lost = Set(worlds).subtracting(current)
        if !lost.isEmpty { throw LeaseLost(worlds: lost.sorted()) }
    }
}

/// Another instance took these worlds over: this writer's lease epoch is stale, so nothing was
/// written. The writer gives the worlds up; the request goes to their new owner.
public struct LeaseLost: Error, CustomStringConvertible, TemporarilyUnavailable {
    /// The worlds whose lease has moved on, sorted.
    public var worlds: [String]
    /// Short: the worlds already have a new owner for the retried request to reach.
    public var retryAfterSeconds: Int { 1 }
    /// Names the worlds, for the log.
    public var description: String { "not written: world \(worlds.joined(separator: ", ")) is now owned by another instance" }
}

extension StoreDatabase {
    /// Runs a job that writes `worlds` under the epochs this process holds (`LeaseBook`).
    func perform(fencing worlds: [String], explicit: [String: Int64] = [:], _ job: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        let leases = leaseBook.fence(worlds, explicit: explicit)
        try await perform { sql in
            try await LeaseCheck.require(leases, on: sql)
            try await job(sql)
        }
    }
}
