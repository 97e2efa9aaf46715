import Logging
import PostgresNIO
import SQLKit
import StoreShared

/// The backend's PostgreSQL connections: one that writes and one that reads, as on SQLite, made
/// from the store's `DatabaseURL` (same URL form, same TLS modes). Each is the store's
/// `PostgresLink`, so a connection lost to a server restart or a network drop is opened again,
/// with its `search_path`, on next use: the backend recovers by itself, and answers 503 while the
/// server is away (docs/backend.md).
enum BackendPostgres {
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
        return BackendDatabase(engine: .postgres, writeSQL: writer.sql, readSQL: reader.sql, begin: { try await begin(on: writer) }) {
            await writer.close()
            await reader.close()
        }
    }

    /// A write transaction on the writer's connection of the moment: a connection found cut at
    /// BEGIN is replaced once, a loss later fails the write (`PostgresLink.begin`, `abandon`).
    static func begin(on writer: PostgresLink) async throws -> BackendWriteConnection {
        let connection = try await writer.begin()
        return BackendWriteConnection(sql: PostgresConnectionSQL(connection, logger: writer.logger)) { error in await writer.abandon(connection, after: error) }
    }
}
