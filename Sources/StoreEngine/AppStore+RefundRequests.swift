import StoreModel

/// Refund requests, their decisions and reversals (World+RefundRequests.swift).
extension AppStore {
    /// A customer asks for a refund; `customer`, when given, must own the transaction (device API).
    public func requestRefund(transactionId: String, reason: String, bundleId: String? = nil, customer: String? = nil, world: String = AppStore.defaultWorld) async throws -> RefundRequest {
        try await self.world(world).requestRefund(transactionId: try Self.transactionId(transactionId), reason: reason, customer: customer, bundleId: bundleId)
    }

    public func refundRequests(world: String = AppStore.defaultWorld) async throws -> [RefundRequest] {
        try await self.world(world).refundRequests()
    }

    public func decideRefund(requestId: String, grant: Bool?, world: String = AppStore.defaultWorld) async throws -> RefundRequest {
        try await self.world(world).decideRefund(requestId: requestId, grant: grant)
    }

    public func reverseRefund(transactionId: String, world: String = AppStore.defaultWorld) async throws -> Signed<TransactionPayload> {
        let world = try await self.world(world)
        let record = try await world.reverseRefund(transactionId: try Self.transactionId(transactionId))
        return try sign(record, nowMs: await world.nowMs())
    }
}
