import Foundation
import OpenStoreKit

/// A payment in the queue and what became of it. The queue changes its state (purchasing, then
/// purchased, failed or deferred) and tells the observers each time.
open class SKPaymentTransaction: NSObject, @unchecked Sendable {
    private struct State {
        var state: SKPaymentTransactionState
        var transaction: Transaction?
        var error: SKError?
    }

    private let current: LockedBox<State>
    private let storedPayment: SKPayment
    private let storedOriginal: SKPaymentTransaction?
    /// The date a failed or pending transaction was added (no store transaction yet).
    private let added = Date()

    init(payment: SKPayment, state: SKPaymentTransactionState, transaction: Transaction? = nil, original: SKPaymentTransaction? = nil) {
        current = LockedBox(State(state: state, transaction: transaction))
        storedPayment = payment
        storedOriginal = original
        super.init()
    }

    /// Mirrors StoreKit's `SKPaymentTransaction.transactionState`: where the transaction is now;
    /// observers hear each change.
    open var transactionState: SKPaymentTransactionState { current.get().state }
    /// The store's transaction ID, once purchased or restored.
    open var transactionIdentifier: String? { current.get().transaction.map { String($0.id) } }
    /// When the store recorded the transaction (the purchase date), once purchased or restored.
    open var transactionDate: Date? {
        let state = current.get()
        return state.transaction?.purchaseDate ?? (state.state == .purchasing ? nil : added)
    }
    /// For a restored transaction, the transaction that was restored.
    open var original: SKPaymentTransaction? { storedOriginal }
    /// Why a `.failed` transaction failed: an `SKError`.
    open var error: (any Error)? { current.get().error }
    /// The payment, as it was when added.
    open var payment: SKPayment { storedPayment }
    /// Hosted content was retired; always empty.
    open var downloads: [SKDownload] { [] }

    /// The StoreKit 2 transaction behind this one (nil while purchasing, deferred, or failed):
    /// the same transaction `Transaction.updates` and `currentEntitlements` give.
    public var transaction: Transaction? { current.get().transaction }

    func update(_ state: SKPaymentTransactionState, transaction: Transaction? = nil, error: SKError? = nil) {
        current.update {
            $0.state = state
            if let transaction { $0.transaction = transaction }
            $0.error = error
        }
    }

    /// The product, state and store transaction ID, for logs.
    open override var description: String {
        "<SKPaymentTransaction \(payment.productIdentifier) \(transactionState) \(transactionIdentifier ?? "-")>"
    }
}
