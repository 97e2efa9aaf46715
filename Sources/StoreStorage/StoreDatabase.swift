import Foundation
import Logging
import NIOCore
import SQLKit
import SQLiteKit

/// The store's durable state in one SQLite file (WAL mode).
///
/// Writes go through a group-commit queue: concurrent operations share one SQL transaction, and each
/// caller resumes only after that transaction committed. `synchronous=NORMAL` in WAL mode makes a
/// commit durable against a killed process (the WAL is in the OS page cache), which is what
/// "acknowledged means kept" needs, at a fraction of the cost of an fsync per purchase.
/// Reads use a second connection, so they never wait for a batch being written.
public final class StoreDatabase: Sendable {
    public let path: String
    let writer: SQLiteConnection
    let reader: SQLiteConnection
    private let committer: GroupCommitter

    var readSQL: any SQLDatabase { reader.sql() }

    private init(path: String, writer: SQLiteConnection, reader: SQLiteConnection) {
        self.path = path
        self.writer = writer
        self.reader = reader
        self.committer = GroupCommitter(connection: writer)
    }

    /// Opens (creating when missing) the database file and its folder, and brings the schema up to date.
    public static func open(path: String, logger: Logger = Logger(label: "openstore.storage")) async throws -> StoreDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        let sql = writer.sql()
        try await sql.raw("PRAGMA journal_mode=WAL").run()
        try await sql.raw("PRAGMA synchronous=NORMAL").run()
        // Another process (the CLI beside a running server) may hold the write lock for a moment.
        try await sql.raw("PRAGMA busy_timeout=5000").run()
        // A catch-up batch dirties thousands of pages across the tables' indexes; with SQLite's
        // default 2 MB cache it spills them mid-transaction and re-reads them from the file.
        try await sql.raw("PRAGMA cache_size=-131072").run()
        // Multi-row upserts keep a statement journal; in memory it costs no file writes.
        try await sql.raw("PRAGMA temp_store=MEMORY").run()
        // Checkpoint every ~32 MB of WAL instead of ~4 MB: pages rewritten by consecutive batches
        // (index interiors, hot subscriptions) are copied into the database once, not each time.
        try await sql.raw("PRAGMA wal_autocheckpoint=8192").run()
        for statement in Schema.statements {
            try await sql.raw(SQLQueryString(statement)).run()
        }
        let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        try await reader.sql().raw("PRAGMA query_only=1").run()
        try await reader.sql().raw("PRAGMA cache_size=-32768").run()
        return StoreDatabase(path: path, writer: writer, reader: reader)
    }

    /// A store dropped without `close()` (a test, a failed start-up) still closes its file.
    deinit {
        if !writer.isClosed { _ = writer.close() as EventLoopFuture<Void> }
        if !reader.isClosed { _ = reader.close() as EventLoopFuture<Void> }
    }

    public func close() async {
        try? await writer.close()
        try? await reader.close()
    }

    /// Runs a write of its own (deletes, single upserts) in its own transaction, in turn with
    /// batches; returns once it is durable.
    public func perform(_ job: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        try await committer.perform(job)
    }

    /// Commits the batch; returns once it is durable.
    public func write(_ batch: WriteBatch) async throws {
        guard !batch.isEmpty else { return }
        try await committer.submit(batch)
    }
}
