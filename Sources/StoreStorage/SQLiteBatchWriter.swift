import Foundation
import NIOPosix
import Synchronization
// SQLite's C API, as SQLiteNIO vendors it (symbols prefixed `sqlite_nio_`). SQLiteNIO prepares every
// query itself and keeps its statement handles internal, so the hot write path talks to SQLite
// directly. The module is the SQLite that SQLiteNIO links (a target of the sqlite-nio package, not
// one of its products, so this import is undeclared: docs/storage.md), not a second copy.
import VaporCSQLite

/// The connection batches are written through: its own thread, one hop per batch (BEGIN, every
/// row, COMMIT run back to back there), and a prepared statement per table that lives as long as
/// the connection, so no SQL text is built or parsed per batch (#12 §5). Each row is one `step` of
/// its table's single-row upsert: SQLite reuses the compiled statement, only the binds change.
///
/// Checkpoints (copying the WAL into the database file, with an fsync) run on a connection and
/// thread of their own (`SQLiteCheckpointer`), so a commit never waits behind one: with SQLite's
/// automatic checkpoint the commit that crossed the threshold paid for it, a stall of tens of
/// milliseconds every few seconds under load (the purchase p99).
final class SQLiteBatchWriter: @unchecked Sendable {
    // `handle` and `statements` are touched only on `thread`'s one thread, one job at a time.
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    private let thread: NIOThreadPool
    private let checkpointer: SQLiteCheckpointer
    private let closed = Atomic<Bool>(false)

    private init(handle: OpaquePointer, thread: NIOThreadPool, checkpointer: SQLiteCheckpointer) {
        self.handle = handle
        self.thread = thread
        self.checkpointer = checkpointer
    }

    /// Opens the writing connection on a file whose schema is in place (after migrations).
    static func open(path: String, cacheKiB: Int) async throws -> SQLiteBatchWriter {
        let (thread, connection) = try await SQLiteHandle.openOnOwnThread(path: path, pragmas: [
            "PRAGMA busy_timeout=5000", "PRAGMA synchronous=NORMAL", "PRAGMA cache_size=-\(cacheKiB)", "PRAGMA temp_store=MEMORY",
        ])
        do {
            let checkpointer = try await SQLiteCheckpointer.open(path: path)
            let writer = SQLiteBatchWriter(handle: connection.handle, thread: thread, checkpointer: checkpointer)
            try await thread.runIfActive { checkpointer.watch(connection.handle) }
            return writer
        } catch {
            _ = try? await thread.runIfActive { sqlite_nio_sqlite3_close_v2(connection.handle) }
            try? await thread.shutdownGracefully()
            throw error
        }
    }

    /// Runs every group's statement once per row, all in one transaction, on the writer's thread.
    func write(_ groups: [RowGroup]) async throws {
        try await thread.runIfActive { try self.writeNow(groups) }
    }

    private func writeNow(_ groups: [RowGroup]) throws {
        guard !closed.load(ordering: .acquiring) else { throw SQLiteCallError(code: SQLITE_MISUSE, message: "the store is closed") }
        try SQLiteHandle.exec(handle, "BEGIN")
        do {
            for group in groups {
                let statement = try prepared(group.sql)
                for row in group.rows { try run(statement, row) }
            }
            try SQLiteHandle.exec(handle, "COMMIT")
        } catch {
            // A failed COMMIT (a full disk) leaves the transaction open: roll it back so the next
            // batch starts clean. Nothing of this batch was acknowledged.
            _ = sqlite_nio_sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    /// Runs one statement outside any batch (a pragma), on the writer's thread.
    func execute(_ sql: String) async throws {
        try await thread.runIfActive { try SQLiteHandle.exec(self.handle, sql) }
    }

    /// The cached statement for this SQL, prepared once per connection (the SQL comes from a
    /// fixed set: one per table, one for delivery outcomes).
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        let statement = try SQLiteHandle.prepare(handle, sql)
        statements[sql] = statement
        return statement
    }

    private func run(_ statement: OpaquePointer, _ binds: [StoreValue]) throws {
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        try SQLiteHandle.bind(binds, to: statement, on: handle)
        let code = sqlite_nio_sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw SQLiteHandle.error(handle, code) }
    }

    func close() async {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = try? await thread.runIfActive {
            for statement in self.statements.values { sqlite_nio_sqlite3_finalize(statement) }
            self.statements.removeAll()
            sqlite_nio_sqlite3_close_v2(self.handle)
        }
        try? await thread.shutdownGracefully()
        await checkpointer.close()
    }

    /// A writer dropped without `close()` (a failed start-up) still closes its file.
    deinit {
        if !closed.load(ordering: .acquiring) {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
            sqlite_nio_sqlite3_close_v2(handle)
            thread.shutdownGracefully { _ in }
        }
    }
}
