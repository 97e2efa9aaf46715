import Foundation

/// A request to buy a product: what `SKPaymentQueue.add(_:)` takes. Immutable; build one with
/// `SKPayment(product:)`, or an `SKMutablePayment` to set a quantity, an application username,
/// a promotional offer or Ask to Buy.
open class SKPayment: NSObject, @unchecked Sendable {
    var storage: Storage

    /// What a payment carries; `SKMutablePayment` writes it.
    struct Storage {
        var productIdentifier = ""
        var product: SKProduct?
        var requestData: Data?
        var quantity = 1
        var applicationUsername: String?
        var simulatesAskToBuyInSandbox = false
        var paymentDiscount: SKPaymentDiscount?
    }

    /// Mirrors StoreKit's `SKPayment(product:)`: a payment for one of `product`, from an `SKProductsRequest` answer.
    public init(product: SKProduct) {
        storage = Storage(productIdentifier: product.productIdentifier, product: product)
        super.init()
    }

    /// An empty payment, with no product identifier; `SKMutablePayment` fills one in.
    public override init() {
        storage = Storage()
        super.init()
    }

    init(storage: Storage) {
        self.storage = storage
        super.init()
    }

    /// Mirrors StoreKit's `SKPayment.productIdentifier`: the product this payment buys.
    open var productIdentifier: String { storage.productIdentifier }
    /// Reserved by Apple for future use; must be nil (a non-nil value fails the payment with
    /// `SKError.unauthorizedRequestData`, as it does on Apple platforms).
    open var requestData: Data? { storage.requestData }
    /// How many of a consumable to buy (1 to 10).
    open var quantity: Int { storage.quantity }
    /// An opaque ID of the customer's account in the app. When it is a UUID it becomes the
    /// transaction's `appAccountToken`, as on Apple platforms.
    open var applicationUsername: String? { storage.applicationUsername }
    /// Asks for parental approval in the sandbox: the transaction goes `.deferred` until the
    /// request is approved (`/admin/v1/worlds/{w}/pending-purchases/{id}/approve`).
    open var simulatesAskToBuyInSandbox: Bool { storage.simulatesAskToBuyInSandbox }
    /// A promotional offer to apply.
    open var paymentDiscount: SKPaymentDiscount? { storage.paymentDiscount }

    /// Payments are equal only when they are the same object, so the queue tells two buys of one product apart.
    open override func isEqual(_ object: Any?) -> Bool { (object as? SKPayment) === self }
    /// Identity-based, to agree with `isEqual(_:)`.
    open override var hash: Int { ObjectIdentifier(self).hashValue }
}
