import Foundation
import StoreModel
import StoreStorage

/// A pre-ordered copy of the app (`AppTransaction.preorderDate`): a customer setting of the
/// Transaction Manager, kept as a world record so the app transaction table is unchanged.
extension World {
    static let preorderKind = "app_preorder"

    static func preorderKey(_ key: CustomerKey) -> String { key.bundleId + "\u{1F}" + key.customer }

    func preorderMs(_ key: CustomerKey) async throws -> Int64? {
        try await env.database.worldRecord(world: id, kind: Self.preorderKind, key: Self.preorderKey(key)).flatMap { Int64($0.value) }
    }

    /// Sets (`ms` > 0) or clears (`0`) the pre-order date; it must not be after the original purchase.
    func setPreorder(_ ms: Int64, key: CustomerKey, record: AppTransactionRecord, batch: inout WriteBatch) async throws {
        if ms == 0 {
            try await env.database.deleteWorldRecord(world: id, kind: Self.preorderKind, key: Self.preorderKey(key))
            return
        }
        guard ms > 0 else { throw StoreError.malformedRequest("preorderDate must be milliseconds after 1970; 0 clears it") }
        guard ms <= record.originalPurchaseMs else {
            throw StoreError.unprocessable("preorderDate must be milliseconds after 1970 and not after originalPurchaseDate (\(record.originalPurchaseMs)); 0 clears it")
        }
        batch.worldRecords.append(WorldRecord(world: id, kind: Self.preorderKind, key: Self.preorderKey(key), value: String(ms)))
    }
}
