import Foundation
import StoreModel
import StoreStorage

/// Which of a customer's transactions to list, after StoreKit's `Transaction` sequences.
public enum TransactionScope: String, Sendable, CaseIterable {
    /// `Transaction.all`
    case all
    /// `Transaction.currentEntitlements`
    case entitlements
    /// `Transaction.unfinished`
    case unfinished
}

extension AppStore {
    func transactions(bundleId: String, customer: String, scope: TransactionScope, world: String) async throws -> [Signed<TransactionPayload>] {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(world)
        let (records, now) = try await world.transactions(bundleId: app.bundleId, customer: customer, scope: scope)
        return try records.map { try sign($0, nowMs: now) }
    }

    func finish(bundleId: String, customer: String, transactionId: String, world: String) async throws {
        let app = try app(bundleId)
        try await self.loadedWorld(world).finish(bundleId: app.bundleId, customer: customer, transactionId: transactionId)
    }

    @discardableResult
    func modifyTransaction(
        world: String, id: Int64, _ change: @Sendable (inout TransactionPayload, inout TransactionRecord) throws -> Void
    ) async throws -> TransactionRecord {
        try await self.loadedWorld(world).modifyTransaction(id: id, change)
    }
}

extension World {
    func transactions(bundleId: String, customer: String, scope: TransactionScope) async throws -> ([TransactionRecord], Int64) {
        try await catchUp()
        let key = CustomerKey(bundleId: bundleId, customer: customer)
        let history = try await history(key)
        let now = nowMs()
        let entitled = Set(chains.values.filter { $0.bundleId == bundleId && $0.customer == customer && $0.isEntitled }.map(\.latestTransactionId))
        let chosen: [OwnedTransaction] = switch scope {
        case .all: Entitlements.all(history)
        case .entitlements: Entitlements.current(history, nowMs: now, entitledSubscriptions: entitled)
        case .unfinished: Entitlements.unfinished(history)
        }
        let wanted = Set(chosen.map(\.id))
        let records = try await env.database.transactions(world: id, bundleId: bundleId, customer: customer)
            .filter { wanted.contains($0.id) }
            .sorted { $0.id < $1.id }
        return (records, nowMs())
    }

    func finish(bundleId: String, customer: String, transactionId: String) async throws {
        guard let id = Int64(transactionId), let record = try await transactionRecord(id),
              record.bundleId == bundleId, record.customer == customer
        else { throw StoreError.transactionNotFound("no transaction \(transactionId) for \(customer) in \(bundleId)") }
        guard !record.finished else { return }
        var batch = WriteBatch()
        // Finishing is the device's business: it keeps its place in the change sequence.
        var finished = record
        finished.finished = true
        batch.transactions.append(finished)
        if let owned = OwnedTransaction(record: finished) { self.record(owned, for: CustomerKey(bundleId: bundleId, customer: customer)) }
        try await commit(batch, announce: false)
    }

    func modifyTransaction(id: Int64, _ change: @Sendable (inout TransactionPayload, inout TransactionRecord) throws -> Void) async throws -> TransactionRecord {
        guard let record = try await transactionRecord(id) else { throw StoreError.transactionNotFound("no transaction \(id)") }
        var batch = WriteBatch()
        let updated = try modify(record, in: &batch, change)
        try await commit(batch)
        return updated
    }
}
