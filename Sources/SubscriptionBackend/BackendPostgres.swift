import Logging
import PostgresNIO
import SQLKit
import StoreShared

/// The backend's PostgreSQL connections: one that writes and one that reads, as on SQLite, and
/// one that holds job locks, made from the store's `DatabaseURL` (same URL form, same TLS modes).
/// Each is the store's `PostgresLink`, so a connection lost to a server restart or a network drop
/// is opened again, with its `search_path`, on next use: the backend recovers by itself, and
/// answers 503 while the server is away (docs/backend.md).
///
/// Several instances may share the database (docs/backend.md, "Many instances"): every write
/// transaction first takes a transaction-scoped advisory lock of the backend's schema, so the
/// writes of all instances take turns as one instance's do, and the rules that read state before
/// writing it (event numbering, "newest signing wins", duplicates) hold across instances. Group
/// commit keeps each turn large; verification, the costly part, runs in every instance at once.
enum BackendPostgres {
    /// The first key of the backend's advisory locks (`OSBK`); the second is a hash of the schema
    /// (writes) or of the schema and the job's name (job locks), so backends in other schemas of
    /// the same database, and the store's own locks, never meet these.
    static let writeLockSpace: Int32 = 0x4F53_424B
    static let jobLockSpace: Int32 = 0x4F53_424C

    static func open(_ location: DatabaseURL.PostgresLocation, schema: String?, logger: Logger) async throws -> BackendDatabase {
        var setup: PostgresLink.Setup?
        if let schema {
            guard schema.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !schema.isEmpty else {
                throw BackendConfigurationError("schema \(schema) must be letters, digits and _")
            }
            setup = { connection in try await connection.sql().raw("SET search_path TO \(ident: schema)").run() }
        }
        let writer = try PostgresLink(location: location, id: 1, logger: logger, setup: setup)
        let reader = try PostgresLink(location: location, id: 2, logger: logger, setup: setup)
        let locks = try PostgresLink(location: location, id: 3, logger: logger, setup: setup)
        // Both connect now, so a wrong URL or an unreachable server stops the start at once.
        do {
            let connection = try await writer.connection()
            if let schema {
                try await connection.sql().raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
            }
            _ = try await reader.connection()
        } catch {
            await writer.close()
            await reader.close()
            // Its text names host, port and database, never the password.
            if let unavailable = error as? StorageUnavailable { throw BackendConfigurationError(unavailable.description) }
            throw error
        }
        return BackendDatabase(engine: .postgres, writeSQL: writer.sql, readSQL: reader.sql,
                               begin: { try await begin(on: writer) }, tryLock: { try await tryLock($0, on: locks) }) {
            await writer.close()
            await reader.close()
            await locks.close()
        }
    }

    /// A write transaction on the writer's connection of the moment: a connection found cut at
    /// BEGIN is replaced once, a loss later fails the write (`PostgresLink.begin`, `abandon`).
    /// It waits for the write lock, so it runs after any other instance's write in progress.
    static func begin(on writer: PostgresLink) async throws -> BackendWriteConnection {
        let connection = try await writer.begin()
        let sql = PostgresConnectionSQL(connection, logger: writer.logger)
        do {
            try await sql.raw("SELECT pg_advisory_xact_lock(\(bind: writeLockSpace), hashtext(current_schema()))").run()
        } catch {
            throw await writer.abandon(connection, after: error)
        }
        return BackendWriteConnection(sql: sql) { error in await writer.abandon(connection, after: error) }
    }

    /// Takes the session-scoped advisory lock of job `name` on the lock connection, if free. The
    /// lock lives as long as that connection: an instance that dies lets it go.
    static func tryLock(_ name: String, on link: PostgresLink) async throws -> (@Sendable () async -> Void)? {
        let connection = try await link.connection()
        let sql = PostgresConnectionSQL(connection, logger: link.logger)
        let key: SQLQueryString = "\(bind: jobLockSpace), hashtext(current_schema() || ':' || \(bind: name))"
        let taken = try await sql.raw("SELECT pg_try_advisory_lock(\(key)) AS taken")
            .first(decodingColumn: "taken", as: Bool.self) ?? false
        guard taken else { return nil }
        return { _ = try? await sql.raw("SELECT pg_advisory_unlock(\(key))").run() }
    }
}
