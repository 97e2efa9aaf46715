import PostgresNIO
import SQLiteKit

/// A value bound into a statement: the store's columns are integers, text or NULL, so this is all
/// either engine is ever handed. Batches and hot reads bind these directly, without SQLKit's
/// per-value `Encodable` round trip.
enum StoreValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int)
    case text(String)
    case null

    init(_ value: Int64) { self = .integer(Int(value)) }
    init(_ value: Int64?) { self = value.map { .integer(Int($0)) } ?? .null }
    init(_ value: Int) { self = .integer(value) }
    init(_ value: String) { self = .text(value) }
    init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    var sqlite: SQLiteData {
        switch self {
        case .integer(let value): return .integer(value)
        case .text(let value): return .text(value)
        case .null: return .null
        }
    }

    /// As SQLite's values print: text quoted, numbers bare.
    var description: String {
        switch self {
        case .integer(let value): return String(value)
        case .text(let value): return "\"\(value)\""
        case .null: return "null"
        }
    }

    func append(to bindings: inout PostgresBindings) {
        switch self {
        case .integer(let value): bindings.append(Int64(value))
        case .text(let value): bindings.append(value)
        case .null: bindings.appendNull()
        }
    }
}

/// One statement with `?` placeholders and its values, bound in order.
struct RawStatement: Sendable {
    var sql: String
    var binds: [StoreValue]
}
