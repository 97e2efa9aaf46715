import Foundation
import Logging
import NIOCore
import SQLKit
import StoreShared

/// The store's durable state, in a SQLite file or on a PostgreSQL server (`DatabaseURL`).
/// Everything above this type sees the same contract on both.
///
/// Writes go through a group-commit queue: concurrent operations share one SQL transaction, and each
/// caller resumes only after that transaction committed. Reads use other connections, so they
/// never wait for a batch being written.
public final class StoreDatabase: Sendable {
    /// What the store was opened from: the SQLite file's path, or the PostgreSQL URL without its password.
    public let path: String
    /// The parsed location (engine, and for PostgreSQL host, port and database).
    public let url: DatabaseURL
    let engine: any StorageEngine
    private let committer: GroupCommitter
    /// With many instances: the epochs every world write is fenced with.
    public let leaseBook = LeaseBook()

    var readSQL: any SQLDatabase { engine.readSQL }
    var dialect: StorageDialect { engine.dialect }

    private init(url: DatabaseURL, engine: any StorageEngine) {
        self.url = url
        switch url {
        case .sqlite(let path): self.path = path
        case .postgres: self.path = url.description
        }
        self.engine = engine
        self.committer = GroupCommitter(engine: engine)
    }

    /// Opens (creating when missing) the SQLite file and its folder, and brings the schema up to date.
    public static func open(path: String, logger: Logger = Logger(label: "openstore.storage")) async throws -> StoreDatabase {
        try await open(.sqlite(path: path), logger: logger)
    }

    /// Opens the store at `url` (`sqlite:PATH` or `postgres://…`): creates the schema on first
    /// start and applies the missing migrations. An unreachable server is reported with its host
    /// and port.
    public static func open(url: String, logger: Logger = Logger(label: "openstore.storage")) async throws -> StoreDatabase {
        try await open(try DatabaseURL(parsing: url), logger: logger)
    }

    /// Opens an already parsed URL, choosing the SQLite or PostgreSQL engine; the other `open`s end here.
    public static func open(_ url: DatabaseURL, logger: Logger = Logger(label: "openstore.storage")) async throws -> StoreDatabase {
        switch url {
        case .sqlite(let path):
            return StoreDatabase(url: url, engine: try await SQLiteEngine.open(path: path, logger: logger))
        case .postgres(let location):
            return StoreDatabase(url: url, engine: try await PostgresEngine.open(location, logger: logger))
        }
    }

    /// Closes the engine's connections, the writer's and the readers'.
    public func close() async {
        await engine.close()
    }

    /// Runs a write of its own (deletes, single upserts) in its own transaction, in turn with
    /// batches; returns once it is durable.
    public func perform(_ job: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        try await committer.perform(job)
    }

    /// Commits the batch; returns once it is durable.
    public func write(_ batch: WriteBatch) async throws {
        guard !batch.isEmpty else { return }
        var batch = batch
        batch.leases = leaseBook.fence(batch.worlds, explicit: batch.leases)
        try await committer.submit(batch)
    }

    /// Whether the database answers and its schema is at this build's version: what `/readyz` reports.
    public func readiness() async -> StorageReadiness {
        do {
            let version = try await readSQL.raw("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
                .first(decodingColumn: "v", as: Int64.self) ?? 0
            let ready = version >= Int64(Migrations.latest)
            return StorageReadiness(
                ready: ready, schemaVersion: Int(version), expectedVersion: Migrations.latest,
                detail: ready ? "database reachable, migrations applied" : "schema at version \(version), this build needs \(Migrations.latest)")
        } catch {
            return StorageReadiness(ready: false, schemaVersion: nil, expectedVersion: Migrations.latest, detail: "\(error)")
        }
    }
}

/// The storage part of readiness: the database answers and holds the schema this build expects.
public struct StorageReadiness: Sendable, Equatable {
    /// True when the database answered and its schema is at least this build's version.
    public var ready: Bool
    /// The highest migration applied; nil when the database could not be asked.
    public var schemaVersion: Int?
    /// The migration this build needs (`Migrations.latest`).
    public var expectedVersion: Int
    /// One line for `/readyz`: what is wrong when not ready.
    public var detail: String
}
