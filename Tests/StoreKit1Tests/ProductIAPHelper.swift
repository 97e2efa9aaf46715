import StoreKit

/// The other StoreKit 1 helper most apps started from (the shape of the widely copied tutorial
/// "In-App Purchase Tutorial: Getting Started"): products by completion handler, purchases posted
/// to `NotificationCenter`, purchased IDs kept in `UserDefaults`, `transaction.error as NSError?`
/// compared with `SKError.paymentCancelled.rawValue`, restores read through
/// `transaction.original?.payment`. Written by us in that shape with `import StoreKit` only; the
/// changes from the iOS version are Linux's own (no `@objc`) and Swift 6's (`@unchecked Sendable`).
final class ProductIAPHelper: NSObject, @unchecked Sendable {
    typealias ProductIdentifier = String
    typealias ProductsRequestCompletionHandler = (_ success: Bool, _ products: [SKProduct]?) -> Void

    static let purchaseNotification = Notification.Name("IAPHelperPurchaseNotification")
    static let failureNotification = Notification.Name("IAPHelperFailureNotification")

    private let productIdentifiers: Set<ProductIdentifier>
    private var purchasedProductIdentifiers: Set<ProductIdentifier> = []
    private var productsRequest: SKProductsRequest?
    private var productsRequestCompletionHandler: ProductsRequestCompletionHandler?
    private let defaults: UserDefaults
    private let lock = NSLock()

    init(productIds: Set<ProductIdentifier>, defaults: UserDefaults) {
        productIdentifiers = productIds
        self.defaults = defaults
        for productIdentifier in productIds where defaults.bool(forKey: productIdentifier) {
            purchasedProductIdentifiers.insert(productIdentifier)
        }
        super.init()
        SKPaymentQueue.default().add(self)
    }

    func stop() { SKPaymentQueue.default().remove(self) }

    func requestProducts(_ completionHandler: @escaping ProductsRequestCompletionHandler) {
        productsRequest?.cancel()
        productsRequestCompletionHandler = completionHandler
        productsRequest = SKProductsRequest(productIdentifiers: productIdentifiers)
        productsRequest!.delegate = self
        productsRequest!.start()
    }

    func buyProduct(_ product: SKProduct) {
        SKPaymentQueue.default().add(SKPayment(product: product))
    }

    func isProductPurchased(_ productIdentifier: ProductIdentifier) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return purchasedProductIdentifiers.contains(productIdentifier)
    }

    class func canMakePayments() -> Bool { SKPaymentQueue.canMakePayments() }

    func restorePurchases() { SKPaymentQueue.default().restoreCompletedTransactions() }
}

extension ProductIAPHelper: SKProductsRequestDelegate {
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        productsRequestCompletionHandler?(true, response.products)
        clearRequestAndHandler()
    }

    func request(_ request: SKRequest, didFailWithError error: Error) {
        productsRequestCompletionHandler?(false, nil)
        clearRequestAndHandler()
    }

    private func clearRequestAndHandler() {
        productsRequest = nil
        productsRequestCompletionHandler = nil
    }
}

extension ProductIAPHelper: SKPaymentTransactionObserver {
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased: complete(transaction: transaction)
            case .failed: fail(transaction: transaction)
            case .restored: restore(transaction: transaction)
            case .deferred, .purchasing: break
            }
        }
    }

    private func complete(transaction: SKPaymentTransaction) {
        deliverPurchaseNotificationFor(identifier: transaction.payment.productIdentifier)
        SKPaymentQueue.default().finishTransaction(transaction)
    }

    private func restore(transaction: SKPaymentTransaction) {
        guard let productIdentifier = transaction.original?.payment.productIdentifier else { return }
        deliverPurchaseNotificationFor(identifier: productIdentifier)
        SKPaymentQueue.default().finishTransaction(transaction)
    }

    private func fail(transaction: SKPaymentTransaction) {
        if let transactionError = transaction.error as NSError?,
           let localizedDescription = transaction.error?.localizedDescription,
           transactionError.code != SKError.paymentCancelled.rawValue {
            NotificationCenter.default.post(name: Self.failureNotification, object: localizedDescription)
        }
        SKPaymentQueue.default().finishTransaction(transaction)
    }

    private func deliverPurchaseNotificationFor(identifier: String?) {
        guard let identifier else { return }
        lock.lock()
        purchasedProductIdentifiers.insert(identifier)
        lock.unlock()
        defaults.set(true, forKey: identifier)
        NotificationCenter.default.post(name: Self.purchaseNotification, object: identifier)
    }
}
