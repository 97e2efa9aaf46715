import StoreKitTypes

/// What the original In-App Purchase API (`SKPaymentQueue`, in the `StoreKit` module) needs of a
/// connection beyond StoreKit 2's own calls. On a device the two APIs share one queue of
/// transactions: StoreKit 2's listeners hear of purchases made through `SKPaymentQueue`, and
/// payment-queue observers hear of StoreKit 2 purchases. StoreKit 2's `Transaction.updates`
/// leaves out only what its own `purchase(options:)` returned.
extension StoreConnection {
    /// Every transaction change of this connection's account, this process's own StoreKit 2
    /// purchases included: what `SKPaymentQueue` listens to.
    public func allTransactionUpdates() -> Transaction.Transactions {
        Transaction.Transactions { TransactionUpdates(connection: .success(self), skipsOwnPurchases: false).stream() }
    }

    /// Buys for the payment queue: not a StoreKit 2 purchase of this process, so StoreKit 2's
    /// `Transaction.updates` announces it, as on a device.
    public func purchaseForPaymentQueue(_ product: Product, options: Set<Product.PurchaseOption>) async throws -> Product.PurchaseResult {
        try await purchase(product, options: options, own: false)
    }
}
