import StoreModel
import StoreStorage

/// The stored row as the rules see it. Kept outside `Rules/`, which imports no storage.
extension OwnedTransaction {
    init?(record: TransactionRecord) {
        guard let kind = ProductKind(rawValue: record.productKind) else { return nil }
        self.init(
            id: record.id, originalId: record.originalId, productId: record.productId, kind: kind,
            groupId: record.groupId, purchaseMs: record.purchaseMs, expiresMs: record.expiresMs,
            revokedMs: record.revokedMs, finished: record.finished)
    }
}
