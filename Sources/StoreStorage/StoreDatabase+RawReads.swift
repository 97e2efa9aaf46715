/// The hot reads (transactions and subscriptions, by customer and by change number) straight from
/// the engine's rows: no SQLKit serializer and no `Decodable` per column. A simulated year reads
/// back every renewal through here.
extension StoreDatabase {
    /// Runs a read written with `?` placeholders on a reading connection and decodes each row.
    func readRows<T: Sendable>(_ sql: String, _ binds: [StoreValue], decode: @escaping @Sendable (StoreRow) throws -> T) async throws -> [T] {
        try await engine.rows(sql, binds, decode: decode)
    }

    static func transaction(raw row: StoreRow) throws -> TransactionRecord {
        TransactionRecord(
            id: try row.int64("id"), world: try row.string("world"), seq: try row.int64("seq"),
            originalId: try row.int64("original_id"), bundleId: try row.string("bundle_id"),
            customer: try row.string("customer"), productId: try row.string("product_id"),
            productKind: try row.string("product_kind"), groupId: try row.optionalString("group_id"),
            purchaseMs: try row.int64("purchase_ms"), expiresMs: try row.optionalInt64("expires_ms"),
            revokedMs: try row.optionalInt64("revoked_ms"), finished: try row.int64("finished") != 0,
            orderId: try row.string("order_id"), ownership: try row.string("ownership"), payload: try row.string("payload"))
    }

    static func subscription(raw row: StoreRow) throws -> SubscriptionRecord {
        SubscriptionRecord(
            world: try row.string("world"), originalId: try row.int64("original_id"), bundleId: try row.string("bundle_id"),
            customer: try row.string("customer"), groupId: try row.string("group_id"), productId: try row.string("product_id"),
            status: Int(try row.int64("status")), nextEventMs: try row.optionalInt64("next_event_ms"),
            version: try row.int64("version"), state: try row.string("state"), updatedMs: try row.int64("updated_ms"))
    }
}
