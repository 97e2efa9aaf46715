import Logging
import NIOCore
import PostgresNIO

/// PostgreSQL's batch path: each table's rows go as one array per column into one fixed
/// statement, `INSERT … SELECT * FROM unnest($1, $2, …) ON CONFLICT …`. The statement text never
/// changes with the batch size, so every connection prepares it once (PostgresNIO's named
/// prepared statements) and a batch is one Bind/Execute per table, whatever its row count.
enum PostgresBatch {
    /// Runs a batch's statements on a connection that is inside a transaction.
    static func write(_ batch: WriteBatch, on connection: PostgresConnection, logger: Logger) async throws {
        try await LeaseCheck.require(batch.leases, on: connection.sql())
        for write in Upserts.plan(for: batch) {
            let columns = columnArrays(write)
            switch write.spec.table {
            case "meta": try await connection.execute(Upsert<MetaTable>(columns: columns), logger: logger)
            case "customers": try await connection.execute(Upsert<CustomersTable>(columns: columns), logger: logger)
            case "app_transactions": try await connection.execute(Upsert<AppTransactionsTable>(columns: columns), logger: logger)
            case "transactions": try await connection.execute(Upsert<TransactionsTable>(columns: columns), logger: logger)
            case "subscriptions": try await connection.execute(Upsert<SubscriptionsTable>(columns: columns), logger: logger)
            case "lifecycle_events": try await connection.execute(Upsert<EventsTable>(columns: columns), logger: logger)
            case "world_records": try await connection.execute(Upsert<WorldRecordsTable>(columns: columns), logger: logger)
            case "notifications": try await connection.execute(Upsert<NotificationsTable>(columns: columns), logger: logger)
            default: preconditionFailure("no PostgreSQL statement for table \(write.spec.table)")
            }
        }
        let attempts = NotificationUpserts.attempts(batch.notifications)
        if !attempts.isEmpty {
            try await connection.execute(AttemptUpdate(updates: attempts), logger: logger)
        }
    }

    static func columnArrays(_ write: TableWrite) -> [PostgresColumnArray] {
        write.spec.kinds.enumerated().map { index, kind in
            PostgresColumnArray(kind: kind, values: write.rows.map { $0[index] })
        }
    }

    /// `INSERT INTO t (…) SELECT * FROM unnest($1::bigint[], $2::text[], …) ON CONFLICT …`.
    static func upsertSQL(_ spec: TableSpec) -> String {
        let arrays = spec.kinds.enumerated().map { index, kind in "$\(index + 1)::\(kind == .integer ? "bigint" : "text")[]" }
        return "INSERT INTO \(spec.table) (\(spec.columns.joined(separator: ", "))) SELECT * FROM unnest(\(arrays.joined(separator: ", ")))"
            + spec.conflictClause
    }

    /// Delivery outcomes: one UPDATE joined to the outcomes as arrays; a row never moves backwards.
    static let attemptSQL = """
        UPDATE notifications SET attempt_count = v.attempt_count, delivered = v.delivered,
        next_attempt_ms = v.next_attempt_ms, attempts = v.attempts
        FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[])
          AS v (seq, attempt_count, delivered, next_attempt_ms, attempts)
        WHERE notifications.seq = v.seq AND notifications.attempt_count < v.attempt_count
        """
}

/// A table whose batch upsert is a prepared statement (its name is the statement's name).
protocol PostgresUpsertTable: Sendable {
    static var spec: TableSpec { get }
    static var sql: String { get }
}

enum MetaTable: PostgresUpsertTable {
    static let spec = Upserts.meta
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum CustomersTable: PostgresUpsertTable {
    static let spec = Upserts.customers
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum AppTransactionsTable: PostgresUpsertTable {
    static let spec = Upserts.appTransactions
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum TransactionsTable: PostgresUpsertTable {
    static let spec = Upserts.transactions
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum SubscriptionsTable: PostgresUpsertTable {
    static let spec = Upserts.subscriptions
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum EventsTable: PostgresUpsertTable {
    static let spec = Upserts.events
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum WorldRecordsTable: PostgresUpsertTable {
    static let spec = Upserts.worldRecords
    static let sql = PostgresBatch.upsertSQL(spec)
}
enum NotificationsTable: PostgresUpsertTable {
    static let spec = NotificationUpserts.spec
    static let sql = PostgresBatch.upsertSQL(spec)
}

/// One table's batch as a prepared statement.
struct Upsert<Table: PostgresUpsertTable>: PostgresPreparedStatement {
    typealias Row = ()
    static var sql: String { Table.sql }
    static var name: String { "openstore_upsert_\(Table.spec.table)" }
    static var bindingDataTypes: [PostgresDataType] {
        Table.spec.kinds.map { $0 == .integer ? .int8Array : .textArray }
    }
    var columns: [PostgresColumnArray]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: columns.count)
        for column in columns { bindings.append(column) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { () }
}

/// Delivery outcomes as a prepared statement.
struct AttemptUpdate: PostgresPreparedStatement {
    typealias Row = ()
    static var sql: String { PostgresBatch.attemptSQL }
    static var name: String { "openstore_notification_attempts" }
    static var bindingDataTypes: [PostgresDataType] { [.int8Array, .int8Array, .int8Array, .int8Array, .textArray] }
    var updates: [NotificationAttemptUpdate]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(PostgresColumnArray(kind: .integer, values: updates.map { .init($0.seq) }))
        bindings.append(PostgresColumnArray(kind: .integer, values: updates.map { .init($0.attemptCount) }))
        bindings.append(PostgresColumnArray(kind: .integer, values: updates.map { .init($0.delivered) }))
        bindings.append(PostgresColumnArray(kind: .integer, values: updates.map { .init($0.nextAttemptMs) }))
        bindings.append(PostgresColumnArray(kind: .text, values: updates.map { .init($0.attempts) }))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { () }
}

/// A column of a batch as a PostgreSQL one-dimensional array in binary form (`bigint[]` or
/// `text[]`), NULL elements included, which PostgresNIO's own array encoding does not allow.
struct PostgresColumnArray: PostgresDynamicTypeEncodable {
    var kind: TableSpec.Kind
    var values: [StoreValue]

    var psqlType: PostgresDataType { kind == .integer ? .int8Array : .textArray }
    var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let element: PostgresDataType = kind == .integer ? .int8 : .text
        let hasNull = values.contains(.null)
        buffer.writeInteger(Int32(values.isEmpty ? 0 : 1))   // dimensions
        buffer.writeInteger(Int32(hasNull ? 1 : 0))           // has NULLs
        buffer.writeInteger(element.rawValue)                 // element type
        guard !values.isEmpty else { return }
        buffer.writeInteger(Int32(values.count))              // length of the dimension
        buffer.writeInteger(Int32(1))                         // its lower bound
        for value in values {
            switch value {
            case .null:
                buffer.writeInteger(Int32(-1))
            case .integer(let number):
                buffer.writeInteger(Int32(8))
                buffer.writeInteger(Int64(number))
            case .text(let text):
                let length = buffer.writerIndex
                buffer.writeInteger(Int32(0))
                let written = buffer.writeString(text)
                buffer.setInteger(Int32(written), at: length)
            }
        }
    }
}
