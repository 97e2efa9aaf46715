/// The outbox's rows inside a batch commit: new notifications are inserted once (a replay of the
/// same event changes nothing); attempt outcomes update their rows.
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

    /// SQLite's update for one delivery outcome, prepared once per connection and stepped per
    /// outcome. An outcome never moves a row backwards (a stale writer loses to a later attempt).
    static let attemptRowSQL = """
        UPDATE notifications SET attempt_count = ?2, delivered = ?3, next_attempt_ms = ?4, attempts = ?5
        WHERE seq = ?1 AND attempt_count < ?2
        """

    /// The binds of `attemptRowSQL` for each outcome.
    static func attemptRows(_ updates: [NotificationAttemptUpdate]) -> [[StoreValue]] {
        updates.map { [.init($0.seq), .init($0.attemptCount), .init($0.delivered), .init($0.nextAttemptMs), .init($0.attempts)] }
    }
}
