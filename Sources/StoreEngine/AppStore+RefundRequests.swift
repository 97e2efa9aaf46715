import StoreModel

/// Refund requests, their decisions and reversals (World+RefundRequests.swift).
extension AppStore {
    func requestRefund(transactionId: String, reason: String, bundleId: String? = nil, customer: String? = nil, world: String) async throws -> RefundRequest {
        try await self.loadedWorld(world).requestRefund(transactionId: try Self.transactionId(transactionId), reason: reason, customer: customer, bundleId: bundleId)
    }

    func refundRequests(world: String) async throws -> [RefundRequest] {
        try await self.loadedWorld(world).refundRequests()
    }

    func decideRefund(requestId: String, grant: Bool?, world: String) async throws -> RefundRequest {
        try await self.loadedWorld(world).decideRefund(requestId: requestId, grant: grant)
    }

    func reverseRefund(transactionId: String, world: String) async throws -> Signed<TransactionPayload> {
        let world = try await self.loadedWorld(world)
        let record = try await world.reverseRefund(transactionId: try Self.transactionId(transactionId))
        return try sign(record, nowMs: await world.nowMs())
    }
}
