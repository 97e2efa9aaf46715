import StoreModel

/// Which transactions unlock content right now, as `Transaction.currentEntitlements` reports them:
/// non-consumables and non-renewing subscriptions the customer owns, and for each auto-renewable
/// subscription chain its latest unexpired transaction. Consumables and refunded purchases never count.
public enum Entitlements {
    /// - Parameter entitledSubscriptions: latest transactions of chains that keep access past their
    ///   expiry (a billing grace period); nil when unknown.
    public static func current(_ history: [OwnedTransaction], nowMs: Int64, entitledSubscriptions: Set<Int64> = []) -> [OwnedTransaction] {
        var latestPerChain: [Int64: OwnedTransaction] = [:]
        var result: [OwnedTransaction] = []
        for transaction in history where transaction.revokedMs == nil {
            switch transaction.kind {
            case .consumable:
                continue
            case .nonConsumable, .nonRenewing:
                // Non-renewing subscriptions have no expiry the store enforces; the app decides.
                result.append(transaction)
            case .autoRenewable:
                let inGrace = entitledSubscriptions.contains(transaction.id)
                guard inGrace || (transaction.expiresMs ?? 0) > nowMs else { continue }
                if let known = latestPerChain[transaction.originalId], known.purchaseMs >= transaction.purchaseMs { continue }
                latestPerChain[transaction.originalId] = transaction
            }
        }
        result += latestPerChain.values
        return result.sorted { $0.id < $1.id }
    }

    /// `Transaction.unfinished`: delivered to the app but not yet finished by it.
    public static func unfinished(_ history: [OwnedTransaction]) -> [OwnedTransaction] {
        history.filter { !$0.finished }
    }

    /// `Transaction.all`: everything except consumables the app already finished, as StoreKit
    /// leaves those out of the history.
    public static func all(_ history: [OwnedTransaction]) -> [OwnedTransaction] {
        history.filter { !($0.kind == .consumable && $0.finished) }
    }
}
