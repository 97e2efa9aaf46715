import Foundation

/// A payment app code fills in: `quantity`, `applicationUsername`, `paymentDiscount`,
/// `simulatesAskToBuyInSandbox`. The queue copies it when it is added, so changing it later does
/// not change the purchase.
open class SKMutablePayment: SKPayment, @unchecked Sendable {
    public override init(product: SKProduct) { super.init(product: product) }
    public override init() { super.init() }

    open override var productIdentifier: String {
        get { storage.productIdentifier }
        set {
            storage.productIdentifier = newValue
            if storage.product?.productIdentifier != newValue { storage.product = nil }
        }
    }
    open override var requestData: Data? {
        get { storage.requestData }
        set { storage.requestData = newValue }
    }
    open override var quantity: Int {
        get { storage.quantity }
        set { storage.quantity = newValue }
    }
    open override var applicationUsername: String? {
        get { storage.applicationUsername }
        set { storage.applicationUsername = newValue }
    }
    open override var simulatesAskToBuyInSandbox: Bool {
        get { storage.simulatesAskToBuyInSandbox }
        set { storage.simulatesAskToBuyInSandbox = newValue }
    }
    open override var paymentDiscount: SKPaymentDiscount? {
        get { storage.paymentDiscount }
        set { storage.paymentDiscount = newValue }
    }
}
