import SQLKit

/// Multi-row `INSERT ... ON CONFLICT DO UPDATE` statements for a batch, all values bound.
enum Upserts {
    static func statements(for batch: WriteBatch) -> [SQLQueryString] {
        var out: [SQLQueryString] = []
        if !batch.meta.isEmpty {
            out.append(upsert(
                table: "meta", columns: ["key", "value"], conflict: ["key"],
                rows: batch.meta.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }))
        }
        if !batch.customers.isEmpty {
            out.append(upsert(
                table: "customers", columns: ["world", "name", "storefront", "locale", "created_ms"],
                conflict: ["world", "name"], keep: ["created_ms"],
                rows: batch.customers.map { [$0.world, $0.name, $0.storefront, $0.locale, $0.createdMs] }))
        }
        if !batch.appTransactions.isEmpty {
            out.append(upsert(
                table: "app_transactions",
                columns: ["world", "bundle_id", "customer", "app_transaction_id", "application_version",
                          "original_application_version", "original_purchase_ms", "original_platform", "created_ms"],
                conflict: ["world", "bundle_id", "customer"], keep: ["app_transaction_id", "created_ms"],
                rows: batch.appTransactions.map {
                    [$0.world, $0.bundleId, $0.customer, $0.appTransactionId, $0.applicationVersion,
                     $0.originalApplicationVersion, $0.originalPurchaseMs, $0.originalPlatform, $0.createdMs]
                }))
        }
        if !batch.transactions.isEmpty {
            out.append(upsert(
                table: "transactions",
                columns: ["id", "world", "seq", "original_id", "bundle_id", "customer", "product_id", "product_kind",
                          "group_id", "purchase_ms", "expires_ms", "revoked_ms", "finished", "order_id", "ownership",
                          "payload"],
                conflict: ["id"], newerThan: "seq",
                rows: batch.transactions.map {
                    [$0.id, $0.world, $0.seq, $0.originalId, $0.bundleId, $0.customer, $0.productId, $0.productKind,
                     $0.groupId, $0.purchaseMs, $0.expiresMs, $0.revokedMs, $0.finished ? 1 : 0, $0.orderId,
                     $0.ownership, $0.payload]
                }))
        }
        if !batch.subscriptions.isEmpty {
            out.append(upsert(
                table: "subscriptions",
                columns: ["world", "original_id", "bundle_id", "customer", "group_id", "product_id", "status",
                          "next_event_ms", "version", "state", "updated_ms"],
                conflict: ["world", "original_id"], newerThan: "version",
                rows: batch.subscriptions.map {
                    [$0.world, $0.originalId, $0.bundleId, $0.customer, $0.groupId, $0.productId, $0.status,
                     $0.nextEventMs, $0.version, $0.state, $0.updatedMs]
                }))
        }
        if !batch.events.isEmpty {
            out.append(upsert(
                table: "lifecycle_events",
                columns: ["seq", "world", "bundle_id", "customer", "type", "subtype", "transaction_id", "original_id", "at_ms", "data"],
                conflict: ["seq"],
                rows: batch.events.map {
                    [$0.seq, $0.world, $0.bundleId, $0.customer, $0.type, $0.subtype, $0.transactionId, $0.originalId, $0.atMs, $0.data]
                }))
        }
        if !batch.worldRecords.isEmpty {
            out.append(upsert(
                table: "world_records", columns: ["world", "kind", "key", "value"], conflict: ["world", "kind", "key"],
                rows: batch.worldRecords.map { [$0.world, $0.kind, $0.key, $0.value] }))
        }
        out += NotificationUpserts.statements(for: batch.notifications)
        return out
    }

    /// Builds one statement. Later rows for the same key win, as they would applied one by one;
    /// duplicate keys inside one statement are collapsed first because SQL forbids them.
    static func upsert(
        table: String, columns: [String], conflict: [String], keep: [String] = [], newerThan version: String? = nil,
        rows: [[(any Encodable & Sendable)?]]
    ) -> SQLQueryString {
        let keyIndexes = conflict.compactMap { columns.firstIndex(of: $0) }
        var seen: [String: Int] = [:]
        var unique: [[(any Encodable & Sendable)?]] = []
        let versionIndex = version.flatMap { columns.firstIndex(of: $0) }
        func versionOf(_ row: [(any Encodable & Sendable)?]) -> Int64 {
            versionIndex.flatMap { row[$0] as? Int64 } ?? 0
        }
        for row in rows {
            let key = keyIndexes.map { String(describing: row[$0].map { "\($0)" } ?? "nil") }.joined(separator: "\u{1F}")
            if let at = seen[key] {
                if versionOf(row) >= versionOf(unique[at]) { unique[at] = row }
            } else {
                seen[key] = unique.count
                unique.append(row)
            }
        }
        var query = SQLQueryString("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ")
        for (index, row) in unique.enumerated() {
            query.appendLiteral(index == 0 ? "(" : ", (")
            for (column, value) in row.enumerated() {
                if column > 0 { query.appendLiteral(", ") }
                if let value { query.appendInterpolation(bind: value) } else { query.appendLiteral("NULL") }
            }
            query.appendLiteral(")")
        }
        let updates = columns.filter { !conflict.contains($0) && !keep.contains($0) }
        query.appendLiteral(" ON CONFLICT (\(conflict.joined(separator: ", "))) ")
        if updates.isEmpty {
            query.appendLiteral("DO NOTHING")
        } else {
            query.appendLiteral("DO UPDATE SET " + updates.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            // Writes may commit out of order; a row only moves forward.
            if let version { query.appendLiteral(" WHERE \(table).\(version) <= excluded.\(version)") }
        }
        return query
    }
}
