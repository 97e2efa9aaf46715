import Foundation

/// A payment app code fills in: `quantity`, `applicationUsername`, `paymentDiscount`,
/// `simulatesAskToBuyInSandbox`. The queue copies it when it is added, so changing it later does
/// not change the purchase.
open class SKMutablePayment: SKPayment, @unchecked Sendable {
    /// A payment for `product`, to adjust before adding it to the queue.
    public override init(product: SKProduct) { super.init(product: product) }
    /// An empty payment; set `productIdentifier` before adding it to the queue.
    public override init() { super.init() }

    /// Settable here; setting a different identifier drops the `SKProduct` the payment was made from.
    open override var productIdentifier: String {
        get { storage.productIdentifier }
        set {
            storage.productIdentifier = newValue
            if storage.product?.productIdentifier != newValue { storage.product = nil }
        }
    }
    /// Settable here; leave it nil, as a non-nil value fails the payment with `SKError.unauthorizedRequestData`.
    open override var requestData: Data? {
        get { storage.requestData }
        set { storage.requestData = newValue }
    }
    /// Settable here: how many of a consumable to buy.
    open override var quantity: Int {
        get { storage.quantity }
        set { storage.quantity = newValue }
    }
    /// Settable here: the customer's account ID in the app; a UUID becomes the transaction's `appAccountToken`.
    open override var applicationUsername: String? {
        get { storage.applicationUsername }
        set { storage.applicationUsername = newValue }
    }
    /// Settable here: true makes the sandbox purchase wait for approval (`.deferred`).
    open override var simulatesAskToBuyInSandbox: Bool {
        get { storage.simulatesAskToBuyInSandbox }
        set { storage.simulatesAskToBuyInSandbox = newValue }
    }
    /// Settable here: the signed promotional offer to apply.
    open override var paymentDiscount: SKPaymentDiscount? {
        get { storage.paymentDiscount }
        set { storage.paymentDiscount = newValue }
    }
}
