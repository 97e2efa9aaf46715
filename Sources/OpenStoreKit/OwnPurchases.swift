import StoreKitTypes

/// The transactions this process bought with `purchase(options:)`. StoreKit leaves an app's own
/// purchases out of `Transaction.updates` (the app handles them from `purchase`'s result), and
/// apps count on it: a store that delivers a consumable both from the result and from its
/// listener would deliver it twice. The store cannot tell devices apart, so the client filters:
/// a live update that is the unrevoked transaction a `purchase` call here returned is skipped.
/// An update that arrives while a purchase of the same product is still under way waits for it,
/// since the store may announce the transaction before the purchase's answer arrives.
actor OwnPurchases {
    private var underWay: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var bought: Set<UInt64> = []
    private var order: [UInt64] = []
    /// Enough for any app session; the oldest are forgotten first.
    static let remembered = 10_000

    func begin(_ productID: String) {
        underWay[productID, default: 0] += 1
    }

    func end(_ productID: String, transactionID: UInt64?) {
        if let transactionID, bought.insert(transactionID).inserted {
            order.append(transactionID)
            if order.count > Self.remembered { bought.remove(order.removeFirst()) }
        }
        let left = (underWay[productID] ?? 1) - 1
        underWay[productID] = left > 0 ? left : nil
        if left <= 0 {
            for waiter in waiting.removeValue(forKey: productID) ?? [] { waiter.resume() }
        }
    }

    /// Whether `transaction` is one of this process's own purchases, as `purchase` returned it.
    func isOwn(_ transaction: Transaction) async -> Bool {
        guard transaction.revocationDate == nil, transaction.reason == .purchase else { return false }
        if underWay[transaction.productID] != nil {
            await withCheckedContinuation { waiting[transaction.productID, default: []].append($0) }
        }
        return bought.contains(transaction.id)
    }
}
