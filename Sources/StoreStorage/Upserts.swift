import SQLiteKit

/// One statement of a batch commit: SQL text with `?` placeholders and its values, bound in order.
/// Batches bypass SQLKit's per-value `Encodable` conversion and serializer: a simulated year writes
/// millions of rows through here.
struct RawStatement: Sendable {
    var sql: String
    var binds: [SQLiteData]
}

extension SQLiteData {
    init(_ value: Int64) { self = .integer(Int(value)) }
    init(_ value: Int64?) { self = value.map { .integer(Int($0)) } ?? .null }
    init(_ value: Int) { self = .integer(value) }
    init(_ value: String) { self = .text(value) }
    init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    init(_ value: Bool) { self = .integer(value ? 1 : 0) }
}

/// Multi-row `INSERT ... ON CONFLICT DO UPDATE` statements for a batch, all values bound.
enum Upserts {
    static func statements(for batch: WriteBatch) -> [RawStatement] {
        var out: [RawStatement] = []
        if !batch.meta.isEmpty {
            out += upsert(
                table: "meta", columns: ["key", "value"], conflict: ["key"],
                rows: batch.meta.sorted { $0.key < $1.key }.map { [.init($0.key), .init($0.value)] })
        }
        if !batch.customers.isEmpty {
            out += upsert(
                table: "customers", columns: ["world", "name", "storefront", "locale", "created_ms"],
                conflict: ["world", "name"], keep: ["created_ms"],
                rows: batch.customers.map { [.init($0.world), .init($0.name), .init($0.storefront), .init($0.locale), .init($0.createdMs)] })
        }
        if !batch.appTransactions.isEmpty {
            out += upsert(
                table: "app_transactions",
                columns: ["world", "bundle_id", "customer", "app_transaction_id", "application_version",
                          "original_application_version", "original_purchase_ms", "original_platform", "created_ms"],
                conflict: ["world", "bundle_id", "customer"], keep: ["app_transaction_id", "created_ms"],
                rows: batch.appTransactions.map {
                    [.init($0.world), .init($0.bundleId), .init($0.customer), .init($0.appTransactionId), .init($0.applicationVersion),
                     .init($0.originalApplicationVersion), .init($0.originalPurchaseMs), .init($0.originalPlatform), .init($0.createdMs)]
                })
        }
        if !batch.transactions.isEmpty {
            out += upsert(
                table: "transactions",
                columns: ["id", "world", "seq", "original_id", "bundle_id", "customer", "product_id", "product_kind",
                          "group_id", "purchase_ms", "expires_ms", "revoked_ms", "finished", "order_id", "ownership",
                          "payload"],
                conflict: ["id"], newerThan: "seq",
                rows: batch.transactions.map {
                    [.init($0.id), .init($0.world), .init($0.seq), .init($0.originalId), .init($0.bundleId), .init($0.customer),
                     .init($0.productId), .init($0.productKind), .init($0.groupId), .init($0.purchaseMs), .init($0.expiresMs),
                     .init($0.revokedMs), .init($0.finished), .init($0.orderId), .init($0.ownership), .init($0.payload)]
                })
        }
        if !batch.subscriptions.isEmpty {
            out += upsert(
                table: "subscriptions",
                columns: ["world", "original_id", "bundle_id", "customer", "group_id", "product_id", "status",
                          "next_event_ms", "version", "state", "updated_ms"],
                // A chain's app, customer and group never change: leaving them out of the update
                // spares SQLite the subscriptions_customer index on every renewal.
                conflict: ["world", "original_id"], keep: ["bundle_id", "customer", "group_id"], newerThan: "version",
                rows: batch.subscriptions.map {
                    [.init($0.world), .init($0.originalId), .init($0.bundleId), .init($0.customer), .init($0.groupId),
                     .init($0.productId), .init($0.status), .init($0.nextEventMs), .init($0.version), .init($0.state), .init($0.updatedMs)]
                })
        }
        if !batch.events.isEmpty {
            out += upsert(
                table: "lifecycle_events",
                columns: ["seq", "world", "bundle_id", "customer", "type", "subtype", "transaction_id", "original_id", "at_ms", "data"],
                conflict: ["seq"],
                rows: batch.events.map {
                    [.init($0.seq), .init($0.world), .init($0.bundleId), .init($0.customer), .init($0.type), .init($0.subtype),
                     .init($0.transactionId), .init($0.originalId), .init($0.atMs), .init($0.data)]
                })
        }
        if !batch.worldRecords.isEmpty {
            out += upsert(
                table: "world_records", columns: ["world", "kind", "key", "value"], conflict: ["world", "kind", "key"],
                rows: batch.worldRecords.map { [.init($0.world), .init($0.kind), .init($0.key), .init($0.value)] })
        }
        out += NotificationUpserts.statements(for: batch.notifications)
        return out
    }

    /// Most rows in one statement; keeps every statement well under SQLite's bind limit and its
    /// text small enough to parse quickly.
    static let rowsPerStatement = 1024

    /// A conflict key's values, hashable for collapsing duplicate rows.
    private enum KeyPart: Hashable {
        case integer(Int), text(String), null, other(String)
        init(_ data: SQLiteData) {
            switch data {
            case .integer(let value): self = .integer(value)
            case .text(let value): self = .text(value)
            case .null: self = .null
            default: self = .other(data.description)
            }
        }
    }

    /// Builds the statements for one table (one per `rowsPerStatement` rows). Later rows for the
    /// same key win, as they would applied one by one; duplicate keys are collapsed first because
    /// SQL forbids them inside one statement.
    static func upsert(
        table: String, columns: [String], conflict: [String], keep: [String] = [], newerThan version: String? = nil,
        rows: [[SQLiteData]]
    ) -> [RawStatement] {
        let keyIndexes = conflict.compactMap { columns.firstIndex(of: $0) }
        let versionIndex = version.flatMap { columns.firstIndex(of: $0) }
        func versionOf(_ row: [SQLiteData]) -> Int {
            guard let versionIndex, case .integer(let value) = row[versionIndex] else { return 0 }
            return value
        }
        var unique: [[SQLiteData]] = []
        unique.reserveCapacity(rows.count)
        if keyIndexes.count == 1 {
            let keyIndex = keyIndexes[0]
            var seen: [KeyPart: Int] = [:]
            seen.reserveCapacity(rows.count)
            for row in rows {
                let key = KeyPart(row[keyIndex])
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
                let key = keyIndexes.map { KeyPart(row[$0]) }
                if let at = seen[key] {
                    if versionOf(row) >= versionOf(unique[at]) { unique[at] = row }
                } else {
                    seen[key] = unique.count
                    unique.append(row)
                }
            }
        }
        let updates = columns.filter { !conflict.contains($0) && !keep.contains($0) }
        var tail = " ON CONFLICT (\(conflict.joined(separator: ", "))) "
        if updates.isEmpty {
            tail += "DO NOTHING"
        } else {
            tail += "DO UPDATE SET " + updates.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            // Writes may commit out of order; a row only moves forward.
            if let version { tail += " WHERE \(table).\(version) <= excluded.\(version)" }
        }
        let head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        let tuple = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        var out: [RawStatement] = []
        var start = 0
        while start < unique.count {
            let end = min(start + rowsPerStatement, unique.count)
            var sql = head
            sql.reserveCapacity(head.utf8.count + (end - start) * (tuple.utf8.count + 2) + tail.utf8.count)
            var binds: [SQLiteData] = []
            binds.reserveCapacity((end - start) * columns.count)
            for index in start..<end {
                if index > start { sql += ", " }
                sql += tuple
                binds += unique[index]
            }
            sql += tail
            out.append(RawStatement(sql: sql, binds: binds))
            start = end
        }
        return out
    }
}
