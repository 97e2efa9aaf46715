/// A table a batch writes to: its columns (with their types, which PostgreSQL's array binds
/// need), the conflict key, the columns an update leaves alone, and the version column that makes
/// a row only move forward. Both engines write from the same description.
struct TableSpec: Sendable {
    enum Kind: Sendable { case integer, text }
    let table: String
    let columns: [String]
    let kinds: [Kind]
    let conflict: [String]
    let keep: [String]
    let newerThan: String?
    /// The single-row form of the upsert (SQLite's batch writer prepares it once per connection
    /// and steps it per row), built once with the spec.
    let singleRowSQL: String

    init(table: String, columns: [(String, Kind)], conflict: [String], keep: [String] = [], newerThan: String? = nil) {
        self.table = table
        self.columns = columns.map(\.0)
        self.kinds = columns.map(\.1)
        self.conflict = conflict
        self.keep = keep
        self.newerThan = newerThan
        self.singleRowSQL = "INSERT INTO \(table) (\(self.columns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")" + Self.conflictClause(
                table: table, columns: self.columns, conflict: conflict, keep: keep, newerThan: newerThan)
    }

    /// `ON CONFLICT …`: updates every column but the key and `keep`; with a version column, an
    /// older row never replaces a newer one (writes may commit out of order).
    var conflictClause: String {
        Self.conflictClause(table: table, columns: columns, conflict: conflict, keep: keep, newerThan: newerThan)
    }

    private static func conflictClause(table: String, columns: [String], conflict: [String], keep: [String], newerThan: String?) -> String {
        let updates = columns.filter { !conflict.contains($0) && !keep.contains($0) }
        var tail = " ON CONFLICT (\(conflict.joined(separator: ", "))) "
        if updates.isEmpty {
            tail += "DO NOTHING"
        } else {
            tail += "DO UPDATE SET " + updates.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            if let newerThan { tail += " WHERE \(table).\(newerThan) <= excluded.\(newerThan)" }
        }
        return tail
    }
}

/// One table's rows of a batch, duplicates collapsed: what either engine turns into statements.
struct TableWrite: Sendable {
    var spec: TableSpec
    var rows: [[StoreValue]]
}

/// The batch writer's plan: which rows go to which table. SQLite gets multi-row
/// `INSERT … ON CONFLICT DO UPDATE` statements with `?` binds (`statements(for:)`); PostgreSQL gets
/// one prepared statement per table with column arrays (`PostgresBatch`).
enum Upserts {
    static let meta = TableSpec(table: "meta", columns: [("key", .text), ("value", .text)], conflict: ["key"])
    static let customers = TableSpec(
        table: "customers",
        columns: [("world", .text), ("name", .text), ("storefront", .text), ("locale", .text), ("created_ms", .integer)],
        conflict: ["world", "name"], keep: ["created_ms"])
    static let appTransactions = TableSpec(
        table: "app_transactions",
        columns: [("world", .text), ("bundle_id", .text), ("customer", .text), ("app_transaction_id", .text),
                  ("application_version", .text), ("original_application_version", .text), ("original_purchase_ms", .integer),
                  ("original_platform", .text), ("created_ms", .integer)],
        conflict: ["world", "bundle_id", "customer"], keep: ["app_transaction_id", "created_ms"])
    static let transactions = TableSpec(
        table: "transactions",
        columns: [("id", .integer), ("world", .text), ("seq", .integer), ("original_id", .integer), ("bundle_id", .text),
                  ("customer", .text), ("product_id", .text), ("product_kind", .text), ("group_id", .text),
                  ("purchase_ms", .integer), ("expires_ms", .integer), ("revoked_ms", .integer), ("finished", .integer),
                  ("order_id", .text), ("ownership", .text), ("payload", .text)],
        conflict: ["id"], newerThan: "seq")
    // A chain's app, customer and group never change: leaving them out of the update spares the
    // subscriptions_customer index on every renewal.
    static let subscriptions = TableSpec(
        table: "subscriptions",
        columns: [("world", .text), ("original_id", .integer), ("bundle_id", .text), ("customer", .text), ("group_id", .text),
                  ("product_id", .text), ("status", .integer), ("next_event_ms", .integer), ("version", .integer),
                  ("state", .text), ("updated_ms", .integer)],
        conflict: ["world", "original_id"], keep: ["bundle_id", "customer", "group_id"], newerThan: "version")
    static let events = TableSpec(
        table: "lifecycle_events",
        columns: [("seq", .integer), ("world", .text), ("bundle_id", .text), ("customer", .text), ("type", .text),
                  ("subtype", .text), ("transaction_id", .integer), ("original_id", .integer), ("at_ms", .integer), ("data", .text)],
        conflict: ["seq"])
    static let worldRecords = TableSpec(
        table: "world_records", columns: [("world", .text), ("kind", .text), ("key", .text), ("value", .text)],
        conflict: ["world", "kind", "key"])

    /// The batch's rows per table, in a fixed table order, duplicate keys collapsed.
    static func plan(for batch: WriteBatch) -> [TableWrite] {
        var out: [TableWrite] = []
        func add(_ spec: TableSpec, _ rows: [[StoreValue]]) {
            guard !rows.isEmpty else { return }
            out.append(TableWrite(spec: spec, rows: unique(rows, spec: spec)))
        }
        add(meta, batch.meta.sorted { $0.key < $1.key }.map { [.init($0.key), .init($0.value)] })
        add(customers, batch.customers.map { [.init($0.world), .init($0.name), .init($0.storefront), .init($0.locale), .init($0.createdMs)] })
        add(appTransactions, batch.appTransactions.map {
            [.init($0.world), .init($0.bundleId), .init($0.customer), .init($0.appTransactionId), .init($0.applicationVersion),
             .init($0.originalApplicationVersion), .init($0.originalPurchaseMs), .init($0.originalPlatform), .init($0.createdMs)]
        })
        add(transactions, batch.transactions.map {
            [.init($0.id), .init($0.world), .init($0.seq), .init($0.originalId), .init($0.bundleId), .init($0.customer),
             .init($0.productId), .init($0.productKind), .init($0.groupId), .init($0.purchaseMs), .init($0.expiresMs),
             .init($0.revokedMs), .init($0.finished), .init($0.orderId), .init($0.ownership), .init($0.payload)]
        })
        add(subscriptions, batch.subscriptions.map {
            [.init($0.world), .init($0.originalId), .init($0.bundleId), .init($0.customer), .init($0.groupId),
             .init($0.productId), .init($0.status), .init($0.nextEventMs), .init($0.version), .init($0.state), .init($0.updatedMs)]
        })
        add(events, batch.events.map {
            [.init($0.seq), .init($0.world), .init($0.bundleId), .init($0.customer), .init($0.type), .init($0.subtype),
             .init($0.transactionId), .init($0.originalId), .init($0.atMs), .init($0.data)]
        })
        add(worldRecords, batch.worldRecords.map { [.init($0.world), .init($0.kind), .init($0.key), .init($0.value)] })
        let emitted = NotificationUpserts.emitted(batch.notifications)
        add(NotificationUpserts.spec, emitted)
        return out
    }

    /// SQLite's plan for a batch: each table's single-row upsert with the rows it is stepped
    /// with, then the delivery outcomes. No SQL text is built here: it was built with the specs.
    static func sqliteRows(for batch: WriteBatch) -> [RowGroup] {
        var groups = plan(for: batch).map { RowGroup(sql: $0.spec.singleRowSQL, rows: $0.rows) }
        let attempts = NotificationUpserts.attempts(batch.notifications)
        if !attempts.isEmpty {
            groups.append(RowGroup(sql: NotificationUpserts.attemptRowSQL, rows: NotificationUpserts.attemptRows(attempts)))
        }
        return groups
    }

    /// A conflict key's values, hashable for collapsing duplicate rows.
    private typealias KeyPart = StoreValue

    /// Later rows for the same key win, as they would applied one by one (unless their version is
    /// lower); SQL forbids the same key twice inside one statement, so they are collapsed first.
    static func unique(_ rows: [[StoreValue]], spec: TableSpec) -> [[StoreValue]] {
        let keyIndexes = spec.conflict.compactMap { spec.columns.firstIndex(of: $0) }
        let versionIndex = spec.newerThan.flatMap { spec.columns.firstIndex(of: $0) }
        func versionOf(_ row: [StoreValue]) -> Int {
            guard let versionIndex, case .integer(let value) = row[versionIndex] else { return 0 }
            return value
        }
        var unique: [[StoreValue]] = []
        unique.reserveCapacity(rows.count)
        if keyIndexes.count == 1 {
            let keyIndex = keyIndexes[0]
            var seen: [KeyPart: Int] = [:]
            seen.reserveCapacity(rows.count)
            for row in rows {
                let key = row[keyIndex]
                if let at = seen[key] {
                    if versionOf(row) >= versionOf(unique[at]) { unique[at] = row }
                } else {
                    seen[key] = unique.count
                    unique.append(row)
                }
            }
        } else {
            var seen: [[KeyPart]: Int] = [:]
            seen.reserveCapacity(rows.count)
            for row in rows {
                let key = keyIndexes.map { row[$0] }
                if let at = seen[key] {
                    if versionOf(row) >= versionOf(unique[at]) { unique[at] = row }
                } else {
                    seen[key] = unique.count
                    unique.append(row)
                }
            }
        }
        return unique
    }
}

/// One prepared statement and the binds of each of its runs.
struct RowGroup: Sendable {
    var sql: String
    var rows: [[StoreValue]]
}
