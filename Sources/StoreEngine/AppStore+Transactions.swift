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
    /// The customer's transactions for an app, each freshly signed (`signedDate` = now), oldest first.
    public func transactions(bundleId: String, customer: String, scope: TransactionScope, world: String = AppStore.defaultWorld) async throws -> [Signed<TransactionPayload>] {
        let app = try app(bundleId)
        let key = CustomerLedger.Key(world: world, bundleId: app.bundleId, customer: customer)
        let history = try await ledger.history(key)
        let now = nowMs(world)
        let chosen: [OwnedTransaction] = switch scope {
        case .all: Entitlements.all(history)
        case .entitlements: Entitlements.current(history, nowMs: now)
        case .unfinished: Entitlements.unfinished(history)
        }
        let wanted = Set(chosen.map(\.id))
        let records = try await database.transactions(world: world, bundleId: app.bundleId, customer: customer)
            .filter { wanted.contains($0.id) }
            .sorted { $0.id < $1.id }
        return try records.map { try sign($0, nowMs: now) }
    }

    /// Re-signs a stored transaction as of now, as Apple does each time it hands one out.
    func sign(_ record: TransactionRecord, nowMs: Int64) throws -> Signed<TransactionPayload> {
        var payload = try PayloadCoding.decoder.decode(TransactionPayload.self, from: Data(record.payload.utf8))
        payload.signedDate = nowMs
        return Signed(jws: try signer.sign(payload), payload: payload)
    }

    /// `Transaction.finish()`: the app delivered the content, so the transaction leaves `unfinished`.
    public func finish(bundleId: String, customer: String, transactionId: String, world: String = AppStore.defaultWorld) async throws {
        let app = try app(bundleId)
        guard let id = Int64(transactionId), var record = try await database.transaction(id: id),
              record.world == world, record.bundleId == app.bundleId, record.customer == customer
        else { throw StoreError.transactionNotFound("no transaction \(transactionId) for \(customer) in \(bundleId)") }
        guard !record.finished else { return }
        record.finished = true
        try await database.write(WriteBatch(transactions: [record]))
        await ledger.update(
            CustomerLedger.Key(world: world, bundleId: app.bundleId, customer: customer),
            { $0.finished = true }, where: { $0.id == id })
    }
}
