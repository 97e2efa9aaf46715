/// Where a transaction is in the queue, with Apple's raw values.
public enum SKPaymentTransactionState: Int, Sendable, Hashable {
    /// Added to the queue, being processed by the store.
    case purchasing = 0
    /// Paid; deliver the content, then `finishTransaction`.
    case purchased = 1
    /// Did not go through; `error` says why. Finish it too.
    case failed = 2
    /// Restored from the customer's purchase history by `restoreCompletedTransactions`.
    case restored = 3
    /// Waiting for someone else (Ask to Buy); a `.purchased` (or `.failed`) update follows.
    case deferred = 4
}
