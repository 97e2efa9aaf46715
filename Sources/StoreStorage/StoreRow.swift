import PostgresNIO
import SQLiteKit

/// A result row of either engine, read by column name as the store's few column types.
/// The hot reads decode through this instead of SQLKit's `Decodable` path.
struct StoreRow {
    private enum Source {
        case sqlite(SQLiteRow)
        case postgres(PostgresRandomAccessRow)
        case values(SQLiteColumns, [StoreValue])
    }
    private let source: Source

    init(_ row: SQLiteRow) { source = .sqlite(row) }
    init(_ row: PostgresRow) { source = .postgres(row.makeRandomAccess()) }
    init(columns: SQLiteColumns, values: [StoreValue]) { source = .values(columns, values) }

    private static func value(_ name: String, _ columns: SQLiteColumns, _ values: [StoreValue]) throws -> StoreValue {
        guard let index = columns.index[name] else { throw RawColumnError(column: name) }
        return values[index]
    }

    func int64(_ name: String) throws -> Int64 {
        guard let value = try optionalInt64(name) else { throw RawColumnError(column: name) }
        return value
    }

    func optionalInt64(_ name: String) throws -> Int64? {
        switch source {
        case .sqlite(let row):
            switch row.column(name) {
            case .integer(let value): return Int64(value)
            case .null: return nil
            default: throw RawColumnError(column: name)
            }
        case .postgres(let row):
            guard row.contains(name) else { throw RawColumnError(column: name) }
            do { return try row[name].decode(Int64?.self) } catch { throw RawColumnError(column: name) }
        case .values(let columns, let values):
            switch try Self.value(name, columns, values) {
            case .integer(let value): return Int64(value)
            case .null: return nil
            case .text: throw RawColumnError(column: name)
            }
        }
    }

    func string(_ name: String) throws -> String {
        guard let value = try optionalString(name) else { throw RawColumnError(column: name) }
        return value
    }

    func optionalString(_ name: String) throws -> String? {
        switch source {
        case .sqlite(let row):
            switch row.column(name) {
            case .text(let value): return value
            case .null: return nil
            default: throw RawColumnError(column: name)
            }
        case .postgres(let row):
            guard row.contains(name) else { throw RawColumnError(column: name) }
            do { return try row[name].decode(String?.self) } catch { throw RawColumnError(column: name) }
        case .values(let columns, let values):
            switch try Self.value(name, columns, values) {
            case .text(let value): return value
            case .null: return nil
            case .integer: throw RawColumnError(column: name)
            }
        }
    }
}

struct RawColumnError: Error, CustomStringConvertible {
    var column: String
    var description: String { "unexpected value in column \(column)" }
}
