import StoreModel

/// Apple's Family Sharing rules for in-app purchases: non-consumables and auto-renewable
/// subscriptions marked family-shareable are shared with the purchaser's family group (the
/// organizer and up to five members). "Each family member gets their own unique receipts and
/// transactions": a copy has its own transaction ID and original transaction ID, the member's
/// app transaction, ownership `FAMILY_SHARED`, and the purchase's product and dates.
public enum FamilySharingRules {
    /// "share … with up to five family members": six people in a group.
    public static let maxGroupSize = 6

    /// Only what the purchaser bought (never a copy) of a shareable non-consumable or subscription.
    public static func isShared(_ product: CatalogProduct, ownership: String) -> Bool {
        product.familyShareable && ownership == InAppOwnershipType.purchased.rawValue
            && (product.kind == .nonConsumable || product.kind == .autoRenewable)
    }

    /// The member's copy of a purchaser's transaction. The app account token is the purchaser's
    /// own link to an account in the developer's system, so the copy doesn't carry it; the
    /// `webOrderLineItemId` is the copy's own, derived from its transaction ID.
    public static func copy(
        of source: TransactionPayload, transactionId: Int64, originalTransactionId: Int64, appTransactionId: String
    ) -> TransactionPayload {
        var copy = source
        copy.transactionId = String(transactionId)
        copy.originalTransactionId = String(originalTransactionId)
        if source.webOrderLineItemId != nil { copy.webOrderLineItemId = TransactionFactory.webOrderLineItemId(for: transactionId) }
        copy.inAppOwnershipType = .familyShared
        copy.appAccountToken = nil
        copy.appTransactionId = appTransactionId
        copy.revocationDate = nil
        copy.revocationReason = nil
        copy.revocationType = nil
        copy.revocationPercentage = nil
        return copy
    }

    /// Revokes a copy. Apple: the revocation reason is 0 when the member leaves the family or the
    /// purchaser stops sharing, and the purchaser's own reason when the purchaser was refunded.
    public static func revoke(_ copy: inout TransactionPayload, atMs: Int64, reason: RevocationReason) {
        copy.revocationDate = atMs
        copy.revocationReason = reason
        copy.revocationType = .familyRevoke
        copy.revocationPercentage = nil
    }

    /// Whether a purchaser's transaction still gives access, so a member joining now gets a copy:
    /// non-consumables until refunded, subscriptions for the period not yet over.
    public static func grantsAccess(_ transaction: OwnedTransaction, nowMs: Int64) -> Bool {
        guard transaction.revokedMs == nil else { return false }
        switch transaction.kind {
        case .nonConsumable: return true
        case .autoRenewable: return (transaction.expiresMs ?? 0) > nowMs
        case .consumable, .nonRenewing: return false
        }
    }
}
