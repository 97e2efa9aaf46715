import Foundation
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
    // `statements` is touched only on the connection's thread, one job at a time.
    private let connection: SQLiteThreadConnection
    private var statements: [String: OpaquePointer] = [:]
    private let checkpointer: SQLiteCheckpointer
    private var handle: OpaquePointer { connection.handle }

    private init(connection: SQLiteThreadConnection, checkpointer: SQLiteCheckpointer) {
        self.connection = connection
        self.checkpointer = checkpointer
    }

    /// Opens the writing connection on a file whose schema is in place (after migrations).
    static func open(path: String, cacheKiB: Int) async throws -> SQLiteBatchWriter {
        let connection = try await SQLiteThreadConnection.open(path: path, pragmas: [
            "PRAGMA busy_timeout=5000", "PRAGMA synchronous=NORMAL", "PRAGMA cache_size=-\(cacheKiB)", "PRAGMA temp_store=MEMORY",
        ])
        do {
            let checkpointer = try await SQLiteCheckpointer.open(path: path)
            let writer = SQLiteBatchWriter(connection: connection, checkpointer: checkpointer)
            try await connection.run { checkpointer.watch(connection.handle) }
            return writer
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Runs every group's statement once per row, all in one transaction, on the writer's thread.
    func write(_ groups: [RowGroup]) async throws {
        try await connection.run { try self.writeNow(groups) }
    }

    private func writeNow(_ groups: [RowGroup]) throws {
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
        try await connection.run { try SQLiteHandle.exec(self.handle, sql) }
    }

    /// The cached statement for this SQL, prepared once per connection (the SQL comes from a
    /// fixed set: one per table, one for delivery outcomes).
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
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
        await connection.close()
        await checkpointer.close()
    }
}
