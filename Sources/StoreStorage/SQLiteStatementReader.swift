import VaporCSQLite

/// The connection the store's hot reads (`StorageEngine.rows`: history pages, transactions, the
/// outbox, customers) run on: its own thread, one hop per read, and a prepared statement kept per
/// SQL text, so a read no longer parses and plans its SQL each time (#12 §5; the profile of a
/// cached history page put 28 % of it there). SQLKit's reads keep SQLiteNIO's connection.
///
/// A statement is reset as soon as its rows are read, which ends its read transaction: a reader
/// holding an old snapshot would keep checkpoints from finishing.
final class SQLiteStatementReader: @unchecked Sendable {
    // `statements` is touched only on the connection's thread, one read at a time.
    private let connection: SQLiteThreadConnection
    private var statements: [String: Prepared] = [:]
    private var handle: OpaquePointer { connection.handle }
    /// Most statements kept; reads whose text varies (an `IN (?, ?, …)` list) would grow it, so
    /// past this it starts over.
    private let capacity = 256

    /// A statement and its result columns by name, worked out once.
    private final class Prepared {
        let statement: OpaquePointer
        let columns: SQLiteColumns
        init(statement: OpaquePointer, columns: SQLiteColumns) {
            self.statement = statement
            self.columns = columns
        }
    }

    private init(connection: SQLiteThreadConnection) {
        self.connection = connection
    }

    static func open(path: String, cacheKiB: Int) async throws -> SQLiteStatementReader {
        SQLiteStatementReader(connection: try await SQLiteThreadConnection.open(
            path: path, pragmas: ["PRAGMA busy_timeout=5000", "PRAGMA query_only=1", "PRAGMA cache_size=-\(cacheKiB)"]))
    }

    /// Runs a read written with `?` placeholders; `decode` runs on the reader's thread, row by row.
    func rows<T: Sendable>(_ sql: String, _ binds: [StoreValue], decode: @escaping @Sendable (StoreRow) throws -> T) async throws -> [T] {
        try await connection.run { try self.read(sql, binds, decode) }
    }

    private func read<T>(_ sql: String, _ binds: [StoreValue], _ decode: (StoreRow) throws -> T) throws -> [T] {
        let prepared = try self.prepared(sql)
        let statement = prepared.statement
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        try SQLiteHandle.bind(binds, to: statement, on: handle)
        var out: [T] = []
        while true {
            let code = sqlite_nio_sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw SQLiteHandle.error(handle, code) }
            out.append(try decode(StoreRow(columns: prepared.columns, values: Self.values(of: statement, count: prepared.columns.count))))
        }
        return out
    }

    private func prepared(_ sql: String) throws -> Prepared {
        if let found = statements[sql] { return found }
        if statements.count >= capacity {
            connection.finalizeAll()
            statements.removeAll()
        }
        let statement = try connection.prepare(sql)
        let count = Int(sqlite_nio_sqlite3_column_count(statement))
        var names: [String: Int] = [:]
        for index in 0..<count {
            // The first column of a name wins, as SQLKit's rows read it.
            let name = String(cString: sqlite_nio_sqlite3_column_name(statement, Int32(index)))
            if names[name] == nil { names[name] = index }
        }
        let prepared = Prepared(statement: statement, columns: SQLiteColumns(count: count, index: names))
        statements[sql] = prepared
        return prepared
    }

    /// The row's values as the store's column types: integers, text or NULL (a real is read as
    /// an integer; the store keeps none).
    private static func values(of statement: OpaquePointer, count: Int) -> [StoreValue] {
        var values: [StoreValue] = []
        values.reserveCapacity(count)
        for index in 0..<Int32(count) {
            switch sqlite_nio_sqlite3_column_type(statement, index) {
            case SQLITE_NULL: values.append(.null)
            case SQLITE_INTEGER, SQLITE_FLOAT: values.append(.integer(Int(sqlite_nio_sqlite3_column_int64(statement, index))))
            default:
                let bytes = sqlite_nio_sqlite3_column_text(statement, index)
                let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                values.append(.text(bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""))
            }
        }
        return values
    }

    func close() async {
        await connection.close()
    }
}

/// A prepared statement's result columns: how many, and each name's position.
struct SQLiteColumns: Sendable {
    var count: Int
    var index: [String: Int]
}
