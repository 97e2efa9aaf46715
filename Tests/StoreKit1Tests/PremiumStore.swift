import StoreKit

/// A StoreKit 1 manager in the shape apps have written it for a decade: a products request
/// delegate, a payment queue observer that finishes what it delivers, restore, receipt refresh,
/// and receipt validation through `verifyReceipt` with the app's shared secret (production
/// first, the sandbox on status 21007). Written against `import StoreKit` only; what differs from
/// the same class on iOS is what Linux forces (no `@objc`, `openStoreReceiptURL`, the
/// `verifyReceipt` host), see docs/storekit1.md.
///
/// Every callback is also reported as an `Event`, so a test can follow them in order.
final class PremiumStore: NSObject, @unchecked Sendable {
    enum Event: Equatable, Sendable {
        case products([String], invalid: [String])
        case requestFailed(SKError.Code)
        case receiptRefreshed
        case updated(String, SKPaymentTransactionState, transactionID: String?, error: SKError.Code?)
        case removed(String)
        case restoreFinished
        case restoreFailed(SKError.Code)
        case storePayment(String)
    }

    let sharedSecret: String
    /// Where `verifyReceipt` is: Apple's `https://buy.itunes.apple.com`, here the store's address.
    let verifyReceiptHost: URL
    let events: AsyncStream<Event>
    private let emit: AsyncStream<Event>.Continuation
    private let lock = NSLock()
    private var loaded: [String: SKProduct] = [:]
    private var productsRequest: SKProductsRequest?
    private var refreshRequest: SKReceiptRefreshRequest?
    /// Whether the observer finishes transactions as they are delivered (apps do).
    var finishesTransactions = true
    /// Whether a purchase started on the App Store (promoted) goes on now.
    var acceptsStorePayments = true

    init(sharedSecret: String, verifyReceiptHost: URL) {
        self.sharedSecret = sharedSecret
        self.verifyReceiptHost = verifyReceiptHost
        (events, emit) = AsyncStream.makeStream(of: Event.self)
        super.init()
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Start and stop

    /// At launch: observe the queue before anything else, so unfinished transactions arrive.
    func start() { SKPaymentQueue.default().add(self) }
    func stop() {
        SKPaymentQueue.default().remove(self)
        emit.finish()
    }

    // MARK: Products

    func requestProducts(_ identifiers: Set<String>) {
        let request = SKProductsRequest(productIdentifiers: identifiers)
        request.delegate = self
        locked { productsRequest = request }
        request.start()
    }

    func product(_ identifier: String) -> SKProduct? { locked { loaded[identifier] } }

    // MARK: Purchases

    func buy(_ product: SKProduct) {
        guard SKPaymentQueue.canMakePayments() else { return }
        SKPaymentQueue.default().add(SKPayment(product: product))
    }

    func buy(_ payment: SKPayment) { SKPaymentQueue.default().add(payment) }

    func restorePurchases() { SKPaymentQueue.default().restoreCompletedTransactions() }

    // MARK: Receipt

    func refreshReceipt() {
        let request = SKReceiptRefreshRequest()
        request.delegate = self
        locked { refreshRequest = request }
        request.start()
    }

    /// The receipt file, as `Bundle.main.appStoreReceiptURL` gives it on iOS.
    var receiptURL: URL? { Bundle.main.openStoreReceiptURL }

    /// Sends the receipt file to `verifyReceipt` with the shared secret: production first, then
    /// the sandbox when production answers 21007, as Apple advises.
    func validateReceipt(excludeOldTransactions: Bool = false) async throws -> [String: Any] {
        guard let url = receiptURL, let receipt = try? Data(contentsOf: url) else {
            throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "no receipt file yet"])
        }
        let production = try await verify(receipt, path: "verifyReceipt", excludeOld: excludeOldTransactions)
        if production["status"] as? Int == 21007 {
            return try await verify(receipt, path: "sandbox/verifyReceipt", excludeOld: excludeOldTransactions)
        }
        return production
    }

    private func verify(_ receipt: Data, path: String, excludeOld: Bool) async throws -> [String: Any] {
        var request = URLRequest(url: verifyReceiptHost.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "receipt-data": receipt.base64EncodedString(), "password": sharedSecret, "exclude-old-transactions": excludeOld,
        ] as [String: Any])
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }
}

extension PremiumStore: SKProductsRequestDelegate {
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        locked { for product in response.products { loaded[product.productIdentifier] = product } }
        emit.yield(.products(response.products.map(\.productIdentifier), invalid: response.invalidProductIdentifiers))
    }

    func requestDidFinish(_ request: SKRequest) {
        if request is SKReceiptRefreshRequest { emit.yield(.receiptRefreshed) }
    }

    func request(_ request: SKRequest, didFailWithError error: Error) {
        emit.yield(.requestFailed((error as? SKError)?.code ?? .unknown))
    }
}

extension PremiumStore: SKPaymentTransactionObserver {
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            emit.yield(.updated(transaction.payment.productIdentifier, transaction.transactionState,
                                transactionID: transaction.transactionIdentifier, error: (transaction.error as? SKError)?.code))
            switch transaction.transactionState {
            case .purchased, .restored, .failed:
                if finishesTransactions { queue.finishTransaction(transaction) }
            case .purchasing, .deferred:
                break
            @unknown default:
                break
            }
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, removedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions { emit.yield(.removed(transaction.payment.productIdentifier)) }
    }

    func paymentQueue(_ queue: SKPaymentQueue, shouldAddStorePayment payment: SKPayment, for product: SKProduct) -> Bool {
        emit.yield(.storePayment(product.productIdentifier))
        return acceptsStorePayments
    }

    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        emit.yield(.restoreFinished)
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: Error) {
        emit.yield(.restoreFailed((error as? SKError)?.code ?? .unknown))
    }
}
