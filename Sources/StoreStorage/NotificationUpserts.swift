/// The outbox's statements inside a batch commit: new notifications are inserted once (a replay
/// of the same event changes nothing); attempt outcomes update their rows in one statement.
/// Chunked so no statement binds more than a few thousand values.
enum NotificationUpserts {
    static let spec = TableSpec(
        table: "notifications",
        columns: [("seq", .integer), ("uuid", .text), ("world", .text), ("bundle_id", .text), ("customer", .text),
                  ("environment", .text), ("type", .text), ("subtype", .text), ("transaction_id", .integer),
                  ("original_id", .integer), ("signed_ms", .integer), ("body_key", .text), ("body", .text),
                  ("transaction_json", .text), ("renewal_json", .text), ("test_token", .text), ("next_attempt_ms", .integer),
                  ("attempt_count", .integer), ("delivered", .integer), ("attempts", .text)],
        conflict: ["seq"],
        keep: ["uuid", "world", "bundle_id", "customer", "environment", "type", "subtype", "transaction_id", "original_id",
               "signed_ms", "body_key", "body", "transaction_json", "renewal_json", "test_token", "next_attempt_ms",
               "attempt_count", "delivered", "attempts"])
    static var columns: [String] { spec.columns }
    static let rowsPerStatement = 500

    /// New outbox rows, as values in `spec`'s column order.
    static func emitted(_ writes: [NotificationWrite]) -> [[StoreValue]] {
        writes.compactMap { write -> [StoreValue]? in
            guard case .emit(let record) = write else { return nil }
            return [.init(record.seq), .init(record.uuid), .init(record.world), .init(record.bundleId), .init(record.customer),
                    .init(record.environment), .init(record.type), .init(record.subtype), .init(record.transactionId),
                    .init(record.originalId), .init(record.signedMs), .init(record.bodyKey), .init(record.body),
                    .init(record.transactionJSON), .init(record.renewalJSON), .init(record.testToken),
                    .init(record.nextAttemptMs), .init(record.attemptCount), .init(record.delivered), .init(record.attempts)]
        }
    }

    /// Delivery outcomes, one per notification: a later outcome of the same notification in the
    /// batch supersedes an earlier one.
    static func attempts(_ writes: [NotificationWrite]) -> [NotificationAttemptUpdate] {
        var attempts: [Int64: NotificationAttemptUpdate] = [:]
        var order: [Int64] = []
        for case .attempt(let update) in writes {
            if attempts[update.seq] == nil { order.append(update.seq) }
            if (attempts[update.seq]?.attemptCount ?? -1) <= update.attemptCount { attempts[update.seq] = update }
        }
        return order.compactMap { attempts[$0] }
    }

    /// SQLite's statements for the outbox part of a batch.
    static func statements(for writes: [NotificationWrite]) -> [RawStatement] {
        let rows = emitted(writes)
        var out = rows.isEmpty ? [] : Upserts.render(spec, Upserts.unique(rows, spec: spec))
        out += attemptStatements(attempts(writes))
        return out
    }

    /// SQLite's updates for delivery outcomes.
    static func attemptStatements(_ updates: [NotificationAttemptUpdate]) -> [RawStatement] {
        var out: [RawStatement] = []
        var start = 0
        while start < updates.count {
            let chunk = updates[start..<min(start + rowsPerStatement, updates.count)]
            var sql = "WITH v (seq, attempt_count, delivered, next_attempt_ms, attempts) AS (VALUES "
            var binds: [StoreValue] = []
            binds.reserveCapacity(chunk.count * 5)
            for (index, update) in chunk.enumerated() {
                sql += index == 0 ? "(?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?)"
                binds += [.init(update.seq), .init(update.attemptCount), .init(update.delivered), .init(update.nextAttemptMs), .init(update.attempts)]
            }
            // An outcome never moves a row backwards (a stale writer loses to a later attempt).
            sql += """
                ) UPDATE notifications SET attempt_count = v.attempt_count, delivered = v.delivered,
                next_attempt_ms = v.next_attempt_ms, attempts = v.attempts
                FROM v WHERE notifications.seq = v.seq AND notifications.attempt_count < v.attempt_count
                """
            out.append(RawStatement(sql: sql, binds: binds))
            start += rowsPerStatement
        }
        return out
    }
}
