import Foundation
import StoreModel
import StoreStorage

/// The refund-request flow behind CONSUMPTION_REQUEST, REFUND_DECLINED and REFUND_REVERSED.
/// Apple's decision is the tester's (the admin API), or follows the developer's
/// `refundPreference` from Send Consumption Information when no decision is given.
extension World {
    func requestRefund(transactionId: Int64, reason: String, customer: String?, bundleId: String?) async throws -> RefundRequest {
        try await catchUp()
        guard NotificationTypes.consumptionRequestReasons.contains(reason) else {
            throw StoreError.malformedRequest("reason must be one of \(NotificationTypes.consumptionRequestReasons.sorted().joined(separator: ", "))")
        }
        guard let record = try await transactionRecord(transactionId), customer == nil || record.customer == customer,
              bundleId == nil || record.bundleId == bundleId else {
            throw StoreError.transactionNotFound("no transaction \(transactionId) in world \(id)")
        }
        guard record.revokedMs == nil else { throw StoreError.invalidAction("transaction \(transactionId) is already refunded") }
        let key = CustomerKey(bundleId: record.bundleId, customer: record.customer)
        _ = try await history(key)
        let now = nowMs()
        let request = RefundRequest(
            id: env.identifiers.uuid(), transactionId: String(transactionId), bundleId: record.bundleId,
            customer: record.customer, reason: reason, requestedDate: now, state: .pending)
        var batch = WriteBatch()
        batch.worldRecords.append(try worldDocumentRecord(request, kind: RefundRequest.recordKind, key: request.id))
        batch.events.append(EventRecord(
            seq: env.identifiers.nextSeq(), world: id, bundleId: record.bundleId, customer: record.customer,
            type: NotificationType.consumptionRequest.rawValue, subtype: nil, transactionId: transactionId,
            originalId: chains[record.originalId] != nil ? record.originalId : nil, atMs: now,
            data: Self.json(["consumptionRequestReason": .string(reason)])))
        try await commit(batch)
        return request
    }

    func refundRequests() async throws -> [RefundRequest] {
        try await env.database.worldRecords(world: id, kind: RefundRequest.recordKind).compactMap {
            try? PayloadCoding.decoder.decode(RefundRequest.self, from: Data($0.value.utf8))
        }.sorted { $0.requestedDate < $1.requestedDate }
    }

    /// Grants (REFUND, through the ordinary refund) or declines (REFUND_DECLINED) a pending request.
    /// - Parameter grant: nil follows the developer's latest `refundPreference` (GRANT_FULL,
    ///   GRANT_PRORATED with its consumption percentage, DECLINE); without one, grants in full.
    func decideRefund(requestId: String, grant: Bool?) async throws -> RefundRequest {
        guard var request = try await worldDocument(RefundRequest.self, kind: RefundRequest.recordKind, key: requestId) else {
            throw StoreError.transactionNotFound("no refund request \(requestId) in world \(id)")
        }
        guard request.state == .pending else { throw StoreError.invalidAction("refund request \(requestId) is already \(request.state.rawValue)") }
        guard let transactionId = Int64(request.transactionId) else { throw StoreError.transactionNotFound(request.transactionId) }
        var decision = grant ?? true
        var percentage: Int?
        if grant == nil, let info = try await env.database.consumptionInfo(world: id, transactionId: transactionId),
           let fields = try? WireObject(json: Array(info.body.utf8)) {
            switch fields.string("refundPreference") {
            case "DECLINE"?: decision = false
            case "GRANT_PRORATED"?: percentage = fields.int("consumptionPercentage").map { 100_000 - $0 }
            default: break
            }
        }
        request.decidedDate = nowMs()
        request.state = decision ? .granted : .declined
        if decision {
            _ = try await refund(transactionId: transactionId, reason: .otherReason, percentage: percentage)
            try await commit(WriteBatch(worldRecords: [try worldDocumentRecord(request, kind: RefundRequest.recordKind, key: request.id)]))
        } else {
            guard let record = try await transactionRecord(transactionId) else { throw StoreError.transactionNotFound(request.transactionId) }
            var batch = WriteBatch(worldRecords: [try worldDocumentRecord(request, kind: RefundRequest.recordKind, key: request.id)])
            emit(.refundDeclined, chain: chains[record.originalId], key: CustomerKey(bundleId: record.bundleId, customer: record.customer),
                 transactionId: transactionId, atMs: nowMs(), in: &batch)
            try await commit(batch)
        }
        return request
    }

    /// Reverses a refund after a dispute (REFUND_REVERSED): the revocation is withdrawn and a
    /// subscription whose refunded period is still running is active again (auto-renew stays off).
    func reverseRefund(transactionId: Int64) async throws -> TransactionRecord {
        try await catchUp()
        guard let record = try await transactionRecord(transactionId) else {
            throw StoreError.transactionNotFound("no transaction \(transactionId) in world \(id)")
        }
        guard record.revokedMs != nil else { throw StoreError.invalidAction("transaction \(transactionId) is not refunded") }
        let key = CustomerKey(bundleId: record.bundleId, customer: record.customer)
        _ = try await history(key)
        var batch = WriteBatch()
        let now = nowMs()
        let restored = try modify(record, in: &batch) { payload, _ in
            payload.revocationDate = nil
            payload.revocationReason = nil
            payload.revocationType = nil
            payload.revocationPercentage = nil
        }
        var chain = chains[record.originalId]
        if var current = chain, current.latestTransactionId == record.id, current.state == .revoked, (record.expiresMs ?? 0) > now {
            current.state = .active
            current.expirationIntent = nil
            current.schedule(.renewal, at: current.expiresMs)
            store(current, in: &batch)
            chain = current
        }
        emit(.refundReversed, chain: chain, key: key, transactionId: record.id, atMs: now, in: &batch)
        try await commit(batch)
        return restored
    }
}
