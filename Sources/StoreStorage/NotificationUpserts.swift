import SQLiteKit

/// The outbox's statements inside a batch commit: new notifications are inserted once (a replay
/// of the same event changes nothing); attempt outcomes update their rows in one statement.
/// Chunked so no statement binds more than a few thousand values.
enum NotificationUpserts {
    static let columns = [
        "seq", "uuid", "world", "bundle_id", "customer", "environment", "type", "subtype", "transaction_id",
        "original_id", "signed_ms", "body_key", "body", "transaction_json", "renewal_json", "test_token",
        "next_attempt_ms", "attempt_count", "delivered", "attempts",
    ]
    static let rowsPerStatement = 500

    static func statements(for writes: [NotificationWrite]) -> [RawStatement] {
        guard !writes.isEmpty else { return [] }
        var emitted: [NotificationRecord] = []
        var attempts: [Int64: NotificationAttemptUpdate] = [:]
        var attemptOrder: [Int64] = []
        for write in writes {
            switch write {
            case .emit(let record): emitted.append(record)
            case .attempt(let update):
                if attempts[update.seq] == nil { attemptOrder.append(update.seq) }
                // Later outcomes of the same notification supersede earlier ones in the batch.
                if (attempts[update.seq]?.attemptCount ?? -1) <= update.attemptCount { attempts[update.seq] = update }
            }
        }
        var out: [RawStatement] = []
        if !emitted.isEmpty {
            out += Upserts.upsert(
                table: "notifications", columns: columns, conflict: ["seq"], keep: Array(columns.dropFirst()),
                rows: emitted.map {
                    [.init($0.seq), .init($0.uuid), .init($0.world), .init($0.bundleId), .init($0.customer), .init($0.environment),
                     .init($0.type), .init($0.subtype), .init($0.transactionId), .init($0.originalId), .init($0.signedMs),
                     .init($0.bodyKey), .init($0.body), .init($0.transactionJSON), .init($0.renewalJSON), .init($0.testToken),
                     .init($0.nextAttemptMs), .init($0.attemptCount), .init($0.delivered), .init($0.attempts)]
                })
        }
        let updates = attemptOrder.compactMap { attempts[$0] }
        var start = 0
        while start < updates.count {
            let chunk = updates[start..<min(start + rowsPerStatement, updates.count)]
            var sql = "WITH v (seq, attempt_count, delivered, next_attempt_ms, attempts) AS (VALUES "
            var binds: [SQLiteData] = []
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
