import VaporCSQLite

/// The few calls of SQLite's C API the store's own connections make (`SQLiteThreadConnection`), with SQLite's own
/// error text. Every function runs on the thread that owns the handle.
enum SQLiteHandle {
    /// `SQLITE_TRANSIENT`: SQLite copies a bound text before the call returns (a C macro Swift
    /// does not import).
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    static func open(path: String, pragmas: [String]) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory"
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            throw SQLiteCallError(code: code, message: "cannot open \(path): \(message)")
        }
        sqlite_nio_sqlite3_extended_result_codes(handle, 1)
        do {
            for pragma in pragmas { try exec(handle, pragma) }
        } catch {
            sqlite_nio_sqlite3_close_v2(handle)
            throw error
        }
        return handle
    }

    static func exec(_ handle: OpaquePointer, _ sql: String) throws {
        let code = sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(handle, code) }
    }

    /// A statement meant to be reused for the connection's life (`SQLITE_PREPARE_PERSISTENT`).
    static func prepare(_ handle: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(handle, code) }
        return statement
    }

    /// Binds values to `?1…?n` (text copied by SQLite, so the Swift string may go away).
    static func bind(_ binds: [StoreValue], to statement: OpaquePointer, on handle: OpaquePointer) throws {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
            case .null: code = sqlite_nio_sqlite3_bind_null(statement, index)
            case .text(var text):
                code = text.withUTF8 { bytes in
                    guard let start = bytes.baseAddress, !bytes.isEmpty else {
                        // Empty text still needs a non-null pointer, or SQLite binds NULL.
                        return sqlite_nio_sqlite3_bind_text(statement, index, "", 0, transient)
                    }
                    return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        sqlite_nio_sqlite3_bind_text(statement, index, $0, Int32(bytes.count), transient)
                    }
                }
            }
            guard code == SQLITE_OK else { throw error(handle, code) }
        }
    }

    static func error(_ handle: OpaquePointer, _ code: Int32) -> SQLiteCallError {
        SQLiteCallError(code: sqlite_nio_sqlite3_extended_errcode(handle), message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }
}

/// A connection handle handed between threads: only ever used on the thread that owns it.
struct SQLitePointer: @unchecked Sendable {
    let handle: OpaquePointer
}

/// A failed call of SQLite's C API: its extended result code and message.
struct SQLiteCallError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    /// The primary result code (`SQLITE_FULL`, `SQLITE_IOERR`, …) under an extended one.
    var primary: Int32 { code & 0xff }
    var description: String { "SQLite error \(code): \(message)" }
}
