import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLKit
import StoreShared

/// The store on a PostgreSQL server: one connection writes (the group committer's, so batches
/// stay in order and share transactions, as on SQLite), a few others read. Every connection
/// reopens itself after the server comes back.
final class PostgresEngine: Sendable {
    let location: DatabaseURL.PostgresLocation
    let logger: Logger
    let writer: PostgresLink
    let readers: [PostgresLink]
    /// The heartbeat's own connection: a lease renewal queued behind a long read on a shared
    /// reader came late enough, on a busy machine, for another instance to take the world over.
    let leases: PostgresLink

    static let readerCount = 4

    private init(location: DatabaseURL.PostgresLocation, logger: Logger) throws {
        let configuration = try location.connectionConfiguration()
        self.location = location
        self.logger = logger
        writer = PostgresLink(configuration: configuration, location: location, id: 0, logger: logger)
        readers = (1...Self.readerCount).map { PostgresLink(configuration: configuration, location: location, id: $0, logger: logger) }
        leases = PostgresLink(configuration: configuration, location: location, id: Self.readerCount + 1, logger: logger)
    }

    /// Connects (a clear error naming host and port when the server cannot be reached) and brings
    /// the schema up to date under an advisory lock.
    static func open(_ location: DatabaseURL.PostgresLocation, logger: Logger) async throws -> PostgresEngine {
        let engine = try PostgresEngine(location: location, logger: logger)
        try await engine.migrate()
        return engine
    }

    func close() async {
        await writer.close()
        for reader in readers { await reader.close() }
        await leases.close()
    }

    /// Applies the missing migrations in one transaction holding a transaction-scoped advisory
    /// lock: a second instance starting at the same moment waits on the lock, then finds the
    /// version table up to date and changes nothing.
    func migrate() async throws {
        try await transaction { sql in
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: Migrations.advisoryLockKey))").run()
            try await sql.raw(SQLQueryString(Migrations.versionTable)).run()
            let current = try await sql.raw("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
                .first(decodingColumn: "v", as: Int64.self) ?? 0
            for step in Migrations.pending(after: Int(current)) {
                for statement in step.statements { try await sql.raw(SQLQueryString(statement)).run() }
                try await sql.raw("""
                    INSERT INTO schema_version (version, applied_ms) VALUES (\(bind: Int64(step.version)), \(bind: Migrations.nowMs))
                    """).run()
            }
        }
    }

    /// A reader, chosen at random so concurrent reads spread over the connections.
    var reader: PostgresLink { readers.randomElement()! }

    var readSQL: any SQLDatabase { reader.sql }

    var leaseSQL: any SQLDatabase { leases.sql }

    /// Runs a read with `?` placeholders and decodes each row. A read that finds its connection
    /// cut (the server restarted since the last query) runs once more on a new one.
    func rows<T: Sendable>(_ sql: String, _ binds: [StoreValue], decode: @escaping @Sendable (StoreRow) throws -> T) async throws -> [T] {
        var bindings = PostgresBindings(capacity: binds.count)
        for bind in binds { bind.append(to: &bindings) }
        let query = PostgresQuery(unsafeSQL: Self.numbered(sql), binds: bindings)
        let link = reader
        for attempt in 1...2 {
            let connection = try await link.connection()
            do {
                return try await Self.read(query, on: connection, logger: logger, decode: decode)
            } catch {
                let failure = await link.failure(error, on: connection)
                if attempt == 1, failure is StorageUnavailable { continue }
                throw failure
            }
        }
        preconditionFailure("unreachable")
    }

    /// One read on `connection`, failing at once if the connection closes under it
    /// (`PostgresCloseWatch`) instead of waiting for an answer that never comes.
    static func read<T: Sendable>(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger,
                                  decode: @escaping @Sendable (StoreRow) throws -> T) async throws -> [T] {
        try await PostgresCloseWatch.guarded(connection) {
            var out: [T] = []
            for try await row in try await connection.query(query, logger: logger) {
                out.append(try decode(StoreRow(row)))
            }
            return out
        }
    }

    /// Runs `body` inside BEGIN … COMMIT on the writer connection; rolls back when it throws.
    /// A connection found cut at BEGIN is replaced once; a loss after that is reported, never
    /// retried, since the COMMIT may have landed (`PostgresLink.begin`, `abandon`).
    func transaction(_ body: @escaping @Sendable (PostgresConnection) async throws -> Void) async throws {
        let connection = try await writer.begin()
        do {
            // The body and COMMIT fail at once if the connection closes under them (`PostgresCloseWatch`).
            try await PostgresCloseWatch.guarded(connection) { [logger] in
                try await body(connection)
                try await connection.query("COMMIT", logger: logger)
            }
        } catch {
            throw await writer.abandon(connection, after: error)
        }
    }

    func transaction(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        try await transaction { (connection: PostgresConnection) in try await body(connection.sql()) }
    }

    func commit(_ batch: WriteBatch) async throws {
        try await transaction { (connection: PostgresConnection) in
            try await PostgresBatch.write(batch, on: connection, logger: self.logger)
        }
    }

    /// `?` placeholders as PostgreSQL's `$1, $2, …` (outside quoted text).
    static func numbered(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.utf8.count + 16)
        var index = 0
        var quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                index += 1
                out += "$\(index)"
            } else {
                out.append(character)
            }
        }
        return out
    }
}
