import SQLKit

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

    static func statements(for writes: [NotificationWrite]) -> [SQLQueryString] {
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
        var out: [SQLQueryString] = []
        var start = 0
        while start < emitted.count {
            let chunk = emitted[start..<min(start + rowsPerStatement, emitted.count)]
            out.append(Upserts.upsert(
                table: "notifications", columns: columns, conflict: ["seq"], keep: Array(columns.dropFirst()),
                rows: chunk.map {
                    [$0.seq, $0.uuid, $0.world, $0.bundleId, $0.customer, $0.environment, $0.type, $0.subtype,
                     $0.transactionId, $0.originalId, $0.signedMs, $0.bodyKey, $0.body, $0.transactionJSON,
                     $0.renewalJSON, $0.testToken, $0.nextAttemptMs, $0.attemptCount, $0.delivered ? 1 : 0, $0.attempts]
                }))
            start += rowsPerStatement
        }
        let updates = attemptOrder.compactMap { attempts[$0] }
        start = 0
        while start < updates.count {
            let chunk = updates[start..<min(start + rowsPerStatement, updates.count)]
            var query = SQLQueryString("WITH v (seq, attempt_count, delivered, next_attempt_ms, attempts) AS (VALUES ")
            for (index, update) in chunk.enumerated() {
                query.appendLiteral(index == 0 ? "(" : ", (")
                query.appendInterpolation(bind: update.seq)
                query.appendLiteral(", ")
                query.appendInterpolation(bind: update.attemptCount)
                query.appendLiteral(", ")
                query.appendInterpolation(bind: update.delivered ? 1 : 0)
                query.appendLiteral(", ")
                if let next = update.nextAttemptMs { query.appendInterpolation(bind: next) } else { query.appendLiteral("NULL") }
                query.appendLiteral(", ")
                query.appendInterpolation(bind: update.attempts)
                query.appendLiteral(")")
            }
            // An outcome never moves a row backwards (a stale writer loses to a later attempt).
            query.appendLiteral("""
                ) UPDATE notifications SET attempt_count = v.attempt_count, delivered = v.delivered,
                next_attempt_ms = v.next_attempt_ms, attempts = v.attempts
                FROM v WHERE notifications.seq = v.seq AND notifications.attempt_count < v.attempt_count
                """)
            out.append(query)
            start += rowsPerStatement
        }
        return out
    }
}
