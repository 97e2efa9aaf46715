extension StoreDatabase {
    /// One customer's transactions of an app changed after `afterSeq`, in change order: what a
    /// resumed `Transaction.updates` stream missed. Served by `transactions_customer`.
    public func transactionsChanged(world: String, bundleId: String, customer: String, afterSeq: Int64, limit: Int) async throws -> [TransactionRecord] {
        try await readRows(
            "SELECT * FROM transactions WHERE world = ? AND bundle_id = ? AND customer = ? AND seq > ? ORDER BY seq LIMIT ?",
            [.text(world), .text(bundleId), .text(customer), .integer(Int(afterSeq)), .integer(limit)],
            decode: Self.transaction(raw:))
    }

    /// The highest change number among one customer's transactions of an app (0 when none).
    public func lastTransactionSeq(world: String, bundleId: String, customer: String) async throws -> Int64 {
        try await readRows(
            "SELECT MAX(seq) AS m FROM transactions WHERE world = ? AND bundle_id = ? AND customer = ?",
            [.text(world), .text(bundleId), .text(customer)],
            decode: { row in try row.optionalInt64("m") ?? 0 }).first ?? 0
    }
}
