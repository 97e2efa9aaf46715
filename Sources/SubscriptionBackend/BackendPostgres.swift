import Foundation
import Logging
import NIOPosix
import NIOSSL
import PostgresKit
import PostgresNIO
import SQLKit
import StoreStorage

/// The backend's PostgreSQL connections: one that writes and one that reads, as on SQLite, made
/// from the store's `DatabaseURL` (same URL form, same TLS modes). A lost connection is not
/// reopened yet: the backend then answers 5xx until it is restarted (docs/backend.md).
enum BackendPostgres {
    static func open(_ location: DatabaseURL.PostgresLocation, schema: String?, logger: Logger) async throws -> BackendDatabase {
        let configuration = try location.connectionConfiguration()
        func connect(_ id: Int) async throws -> PostgresConnection {
            do {
                return try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
            } catch {
                // Named by host and port, never with the password.
                throw BackendConfigurationError("cannot connect to PostgreSQL at \(location.host):\(location.port) (database \(location.database)): \(String(reflecting: error).prefix(300))")
            }
        }
        let writer = try await connect(1)
        let reader: PostgresConnection
        do { reader = try await connect(2) } catch {
            try? await writer.close()
            throw error
        }
        if let schema {
            guard schema.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !schema.isEmpty else {
                throw BackendConfigurationError("schema \(schema) must be letters, digits and _")
            }
            try await writer.sql().raw("CREATE SCHEMA IF NOT EXISTS \(ident: schema)").run()
            for connection in [writer, reader] {
                try await connection.sql().raw("SET search_path TO \(ident: schema)").run()
            }
        }
        return BackendDatabase(engine: .postgres, writeSQL: writer.sql(), readSQL: reader.sql(), begin: "BEGIN") {
            try? await writer.close()
            try? await reader.close()
        }
    }
}
