import Foundation
import Logging
import NIOCore
import SQLKit
import SQLiteKit
import StoreShared

/// The store in one SQLite file (WAL mode): batches are written through `SQLiteBatchWriter` (its own
/// thread and prepared statements, checkpoints on a thread of their own); the hot reads go through
/// `SQLiteStatementReader` (prepared statements too) and SQLKit's reads through SQLiteNIO's reader,
/// so reads never wait for a batch being written; one more connection runs migrations and the rare
/// jobs that need SQL of their own (`transaction(_:)`). `synchronous=NORMAL` in WAL mode makes a commit durable
/// against a killed process (the WAL is in the OS page cache), which is what "acknowledged means
/// kept" needs, at a fraction of the cost of an fsync per purchase.
final class SQLiteEngine: StorageEngine {
    let path: String
    let writer: SQLiteConnection
    let reader: SQLiteConnection
    let batches: SQLiteBatchWriter
    let statementReader: SQLiteStatementReader

    var dialect: StorageDialect { .sqlite }
    var readSQL: any SQLDatabase { reader.sql() }
    /// One process owns every world on SQLite: leases are never renewed there.
    var leaseSQL: any SQLDatabase { readSQL }

    private init(path: String, writer: SQLiteConnection, reader: SQLiteConnection, batches: SQLiteBatchWriter,
                 statementReader: SQLiteStatementReader) {
        self.path = path
        self.writer = writer
        self.reader = reader
        self.batches = batches
        self.statementReader = statementReader
    }

    /// Opens (creating when missing) the file and its folder, and brings the schema up to date.
    static func open(path: String, logger: Logger) async throws -> SQLiteEngine {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        do {
            return try await configure(path: path, writer: writer, logger: logger)
        } catch {
            // A store that cannot open (a read-only folder) reports why and exits; its connection
            // is closed first (SQLiteNIO's debug builds trap on a connection freed open).
            try? await writer.close()
            if !FileManager.default.isWritableFile(atPath: folder) {
                throw SQLiteOpenFailure(description: "cannot open the store \(path): its folder \(folder) is read-only or not writable (\(error))")
            }
            throw error
        }
    }

    private static func configure(path: String, writer: SQLiteConnection, logger: Logger) async throws -> SQLiteEngine {
        let sql = writer.sql()
        // Another process (the CLI beside a running server) may hold the write lock for a moment.
        try await sql.raw("PRAGMA busy_timeout=5000").run()
        try await retryingBusy { try await sql.raw("PRAGMA journal_mode=WAL").run() }
        try await sql.raw("PRAGMA synchronous=NORMAL").run()
        // This connection runs migrations and occasional jobs; batches have their own (below).
        try await sql.raw("PRAGMA cache_size=-8192").run()
        try await sql.raw("PRAGMA temp_store=MEMORY").run()
        let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        do {
            try await reader.sql().raw("PRAGMA query_only=1").run()
            // In WAL mode a connection drops its whole cache whenever another one has committed, so
            // under writes the reader only ever holds what reads touch between two commits: 8 MiB.
            try await reader.sql().raw("PRAGMA cache_size=-8192").run()
            try await retryingBusy { try await migrate(writer) }
            // A catch-up batch dirties thousands of pages across the tables' indexes; with SQLite's
            // default 2 MB cache it spills them mid-transaction and re-reads them from the file.
            // Measured: one batch of 2,000 renewals writes 860 to 1,075 pages (3.4 to 4.2 MiB of
            // WAL), so 32 MiB holds a batch several times over, even one whose renewals hit
            // scattered index leaves. The cache fills up to this size and stays there
            // (docs/reliability.md, "Bounded memory").
            let batches = try await SQLiteBatchWriter.open(path: path, cacheKiB: 32_768)
            do {
                let statementReader = try await SQLiteStatementReader.open(path: path, cacheKiB: 8_192)
                return SQLiteEngine(path: path, writer: writer, reader: reader, batches: batches, statementReader: statementReader)
            } catch {
                await batches.close()
                throw error
            }
        } catch {
            try? await reader.close()
            throw error
        }
    }

    /// Runs `body` again (up to 5 times, a little later each time) when SQLite answers busy. Two
    /// stores opening one new file at once can meet `SQLITE_BUSY` that the busy timeout does not
    /// wait out: SQLite refuses a lock upgrade at once where waiting could deadlock, and on a
    /// loaded machine the other's migrations can outlast the timeout. Seen in
    /// `StorageContractTests.twoStoresOpeningAnEmptyDatabaseAtOnceCreateTheSchemaOnce`.
    private static func retryingBusy(_ body: () async throws -> Void) async throws {
        for attempt in 1... {
            do {
                return try await body()
            } catch where attempt < 5 && isBusy(error) {
                try await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    private static func isBusy(_ error: any Error) -> Bool {
        let text = "\(error)".lowercased()
        return text.contains("database is locked") || text.contains("busy")
    }

    /// Applies the missing migrations. `BEGIN IMMEDIATE` takes the file's write lock first, so a
    /// second process opening the same file at the same time waits, then finds them applied.
    private static func migrate(_ writer: SQLiteConnection) async throws {
        try await writer.query("BEGIN IMMEDIATE", []) { _ in }
        do {
            let sql = writer.sql()
            try await sql.raw(SQLQueryString(Migrations.versionTable)).run()
            let current = try await sql.raw("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version")
                .first(decodingColumn: "v", as: Int.self) ?? 0
            for step in Migrations.pending(after: current) {
                for statement in step.sqliteStatements ?? step.statements { try await sql.raw(SQLQueryString(statement)).run() }
                try await sql.raw("""
                    INSERT INTO schema_version (version, applied_ms) VALUES (\(bind: step.version), \(bind: Migrations.nowMs))
                    """).run()
            }
            try await writer.query("COMMIT", []) { _ in }
        } catch {
            try? await writer.query("ROLLBACK", []) { _ in }
            throw error
        }
    }

    /// A store dropped without `close()` (a test, a failed start-up) still closes its file.
    deinit {
        if !writer.isClosed { _ = writer.close() as EventLoopFuture<Void> }
        if !reader.isClosed { _ = reader.close() as EventLoopFuture<Void> }
    }

    /// Makes both writing connections refuse (or take again) every write with SQLITE_READONLY,
    /// as a read-only disk would: tests of how the store survives refused writes use it.
    func refuseWrites(_ refused: Bool) async throws {
        try await writer.query("PRAGMA query_only=\(refused ? 1 : 0)", []) { _ in }
        try await batches.execute("PRAGMA query_only=\(refused ? 1 : 0)")
    }

    func close() async {
        await statementReader.close()
        await batches.close()
        try? await writer.close()
        try? await reader.close()
    }

    /// The hot reads: prepared once per SQL text on the statement reader's connection.
    func rows<T: Sendable>(_ sql: String, _ binds: [StoreValue], decode: @escaping @Sendable (StoreRow) throws -> T) async throws -> [T] {
        try await statementReader.rows(sql, binds, decode: decode)
    }

    func transaction(_ job: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        let database = writer.sql()
        try await transaction { try await job(database) }
    }

    /// A batch goes to SQLite through prepared statements with ready-made binds, in one hop to
    /// the writer's thread: a simulated year writes millions of rows through here.
    func commit(_ batch: WriteBatch) async throws {
        do {
            try await batches.write(Upserts.sqliteRows(for: batch))
        } catch {
            throw StorageUnavailable.sqliteWrite(error) ?? error
        }
    }

    private func transaction(_ body: () async throws -> Void) async throws {
        try await writer.query("BEGIN", []) { _ in }
        do {
            try await body()
            try await writer.query("COMMIT", []) { _ in }
        } catch {
            try? await writer.query("ROLLBACK", []) { _ in }
            throw StorageUnavailable.sqliteWrite(error) ?? error
        }
    }
}

/// The store's SQLite file could not be opened for a reason the person starting it can fix.
struct SQLiteOpenFailure: Error, CustomStringConvertible {
    var description: String
}
