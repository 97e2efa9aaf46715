import Foundation

/// The schema's history as forward steps. A store records the versions it has applied in
/// `schema_version`; on start each missing step runs, with its version row, in one transaction.
/// PostgreSQL takes an advisory lock first, so instances starting at once apply each step once
/// (the others wait, then find it done); SQLite's write lock does the same for processes
/// sharing a file.
enum Migrations {
    struct Step: Sendable {
        var version: Int
        var summary: String
        var statements: [String]
        /// SQLite's own statements for the step, where the two engines differ.
        var sqliteStatements: [String]? = nil
    }

    /// In order. Never edit a released step: add one.
    static let steps: [Step] = [
        Step(version: 1, summary: "the store's tables", statements: Schema.statements),
        Step(version: 2, summary: "many instances: world leases, live instances, identifier blocks", statements: LeaseSchema.statements),
        Step(version: 3, summary: "integer row keys on SQLite, a partial index of revoked transactions",
             statements: IntegerKeySchema.revokedIndex, sqliteStatements: IntegerKeySchema.sqlite),
        Step(version: 4, summary: "the lease epoch as a key column, so heartbeats do not wait for writes",
             statements: LeaseSchema.epochKey),
    ]

    /// The version a store opened by this build ends at.
    static var latest: Int { steps.last?.version ?? 0 }

    static let versionTable = "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)"

    /// The key of the PostgreSQL advisory lock held while migrating ("OSKSCHEM" as ASCII).
    static let advisoryLockKey: Int64 = 0x4F53_4B53_4348_454D

    /// The steps a store at `version` still needs.
    static func pending(after version: Int) -> [Step] {
        steps.filter { $0.version > version }
    }

    static var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
