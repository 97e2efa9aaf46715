import SQLiteKit

/// The hot reads (transactions and subscriptions, by customer and by change number) straight from
/// SQLite rows: no SQLKit serializer and no `Decodable` per column. A simulated year reads back
/// every renewal through here.
extension StoreDatabase {
    /// Runs a read on the reader connection; `decode` runs on SQLite's thread, row by row.
    func readRows<T: Sendable>(_ sql: String, _ binds: [SQLiteData], decode: @escaping @Sendable (SQLiteRow) throws -> T) async throws -> [T] {
        let rows = RowCollector<T>()
        try await reader.query(sql, binds) { row in rows.append(Result { try decode(row) }) }
        return try rows.take().map { try $0.get() }
    }

    static func transaction(raw row: SQLiteRow) throws -> TransactionRecord {
        TransactionRecord(
            id: try row.int64("id"), world: try row.string("world"), seq: try row.int64("seq"),
            originalId: try row.int64("original_id"), bundleId: try row.string("bundle_id"),
            customer: try row.string("customer"), productId: try row.string("product_id"),
            productKind: try row.string("product_kind"), groupId: try row.optionalString("group_id"),
            purchaseMs: try row.int64("purchase_ms"), expiresMs: try row.optionalInt64("expires_ms"),
            revokedMs: try row.optionalInt64("revoked_ms"), finished: try row.int64("finished") != 0,
            orderId: try row.string("order_id"), ownership: try row.string("ownership"), payload: try row.string("payload"))
    }

    static func subscription(raw row: SQLiteRow) throws -> SubscriptionRecord {
        SubscriptionRecord(
            world: try row.string("world"), originalId: try row.int64("original_id"), bundleId: try row.string("bundle_id"),
            customer: try row.string("customer"), groupId: try row.string("group_id"), productId: try row.string("product_id"),
            status: Int(try row.int64("status")), nextEventMs: try row.optionalInt64("next_event_ms"),
            version: try row.int64("version"), state: try row.string("state"), updatedMs: try row.int64("updated_ms"))
    }
}

/// Rows gathered on SQLite's thread, handed over once the query finished.
private final class RowCollector<T: Sendable>: @unchecked Sendable {
    // Appended only from the one thread running the query; read after it completed.
    private var items: [Result<T, any Error>] = []
    func append(_ item: Result<T, any Error>) { items.append(item) }
    func take() -> [Result<T, any Error>] { items }
}

struct RawColumnError: Error, CustomStringConvertible {
    var column: String
    var description: String { "unexpected value in column \(column)" }
}

extension SQLiteRow {
    func int64(_ name: String) throws -> Int64 {
        guard case .integer(let value) = column(name) else { throw RawColumnError(column: name) }
        return Int64(value)
    }

    func optionalInt64(_ name: String) throws -> Int64? {
        switch column(name) {
        case .integer(let value): return Int64(value)
        case .null: return nil
        default: throw RawColumnError(column: name)
        }
    }

    func string(_ name: String) throws -> String {
        guard case .text(let value) = column(name) else { throw RawColumnError(column: name) }
        return value
    }

    func optionalString(_ name: String) throws -> String? {
        switch column(name) {
        case .text(let value): return value
        case .null: return nil
        default: throw RawColumnError(column: name)
        }
    }
}
