import Foundation

/// What the payment queue tells its observers, on the main queue. Only
/// `paymentQueue(_:updatedTransactions:)` is required, as in StoreKit; the others are
/// `@objc optional` there and have default implementations here.
public protocol SKPaymentTransactionObserver: NSObjectProtocol {
    /// Transactions changed state: `.purchasing` when a payment is added, then `.purchased`,
    /// `.failed` or `.deferred`; `.restored` during a restore; `.purchased` for transactions the
    /// app did not finish before (delivered again when the first observer is added), renewals,
    /// Ask to Buy approvals and purchases made elsewhere.
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction])
    /// `finishTransaction` removed these transactions from the queue.
    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction])
    /// The restore failed; `error` is an `SKError`.
    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error)
    /// Every restored transaction was delivered.
    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue)
    /// Hosted content (never, here: Apple retired it).
    func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload])
    /// A purchase started on the App Store (a promoted In-App Purchase): return true to add it
    /// to the queue now, false to add it later (keep the payment) or never.
    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool
    /// The customer's storefront changed.
    func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue)
    /// Family Sharing no longer entitles the customer to these products.
    func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String])
}

extension SKPaymentTransactionObserver {
    /// Default for observers that do not implement it: ignore removed transactions.
    public func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {}
    /// Default for observers that do not implement it: ignore the failed restore.
    public func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: any Error) {}
    /// Default for observers that do not implement it: ignore the end of a restore.
    public func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {}
    /// Default for observers that do not implement it: ignore downloads (there are none).
    public func paymentQueue(_ queue: SKPaymentQueue, updatedDownloads downloads: [SKDownload]) {}
    /// StoreKit's default when the observer does not implement it: add the payment (true).
    public func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool { true }
    /// Default for observers that do not implement it: ignore the storefront change.
    public func paymentQueueDidChangeStorefront(_ queue: SKPaymentQueue) {}
    /// Default for observers that do not implement it: ignore the revoked entitlements.
    public func paymentQueue(_ queue: SKPaymentQueue, didRevokeEntitlementsForProductIdentifiers productIdentifiers: [String]) {}
}
