import StoreKit

typealias SuccessBlock = () -> Void
typealias FailureBlock = (Error?) -> Void
typealias ProductsBlock = ([SKProduct]) -> Void

/// The article's `IAPManager`, over the original In-App Purchase API: it loads the products,
/// buys and restores through the payment queue, validates the app receipt through
/// `verifyReceipt` with the shared secret (production first, the sandbox on 21007), and keeps each
/// subscription's expiry date from `latest_receipt_info`.
///
/// What differs from the article is what Linux or this store needs (docs/storekit1.md): no `@objc`;
/// `Bundle.main.openStoreReceiptURL`; `verifyReceipt` at the store's address; the device's own
/// `UserDefaults`; "now" as the store's clock says it (`time advance` moves the store's clock, not
/// the machine's); and two gaps of the article closed (a missing receipt file is refreshed, and a
/// restore with nothing to restore ends).
final class IAPManager: NSObject, @unchecked Sendable {
    static let shared = IAPManager()
    private(set) var products = [SKProduct]()

    private var sharedSecret = ""
    private var productIds: Set<String> = []
    private var didLoadsProducts: ProductsBlock?
    private var successBlock: SuccessBlock?
    private var failureBlock: FailureBlock?
    /// Everyone waiting for the validation in flight (the article kept one pair of blocks, which a
    /// renewal delivered at launch would replace while the launch's own check was running).
    private var refreshWaiters: [(success: SuccessBlock, failure: FailureBlock)] = []
    private var restoredAny = false

    /// Where `verifyReceipt` is (Apple's `https://buy.itunes.apple.com`).
    var verifyReceiptHost = URL(string: "https://buy.itunes.apple.com")!
    /// The device's defaults (the article's `UserDefaults.standard`).
    var defaults = UserDefaults.standard
    /// The store's clock at the last validation (`request_date_ms`).
    private(set) var now = Date()

    private override init() {}

    // MARK: - Main methods

    func startWith(arrayOfIds: Set<String>, sharedSecret: String, callback: @escaping ProductsBlock) {
        SKPaymentQueue.default().add(self)
        self.didLoadsProducts = callback
        self.sharedSecret = sharedSecret
        self.productIds = arrayOfIds
        loadProducts()
    }

    func expirationDateFor(_ identifier: String) -> Date? {
        defaults.object(forKey: identifier) as? Date
    }

    func isActive(product: SKProduct) -> Bool {
        if let date = expirationDateFor(product.productIdentifier), now < date {
            return true
        }
        return false
    }

    func purchaseProduct(product: SKProduct, success: @escaping SuccessBlock, failure: @escaping FailureBlock) {
        guard SKPaymentQueue.canMakePayments() else { return }
        guard SKPaymentQueue.default().transactions.last?.transactionState != .purchasing else { return }
        self.successBlock = success
        self.failureBlock = failure
        SKPaymentQueue.default().add(SKPayment(product: product))
    }

    func restorePurchases(success: @escaping SuccessBlock, failure: @escaping FailureBlock) {
        self.successBlock = success
        self.failureBlock = failure
        restoredAny = false
        SKPaymentQueue.default().restoreCompletedTransactions()
    }

    /// Sends the receipt to `verifyReceipt`; with no receipt file yet, refreshes it first. One
    /// validation runs at a time; every caller hears how it ended.
    func refreshSubscriptionsStatus(callback: @escaping SuccessBlock, failure: @escaping FailureBlock) {
        refreshWaiters.append((callback, failure))
        guard refreshWaiters.count == 1 else { return }
        validateReceipt()
    }

    private func validateReceipt() {
        guard let receiptUrl = Bundle.main.openStoreReceiptURL, FileManager.default.fileExists(atPath: receiptUrl.path) else {
            refreshReceipt()
            // Validated once the refreshed receipt is written (requestDidFinish).
            return
        }
        let receiptData = (try? Data(contentsOf: receiptUrl))?.base64EncodedString() ?? ""
        verify(receiptData, path: "verifyReceipt")
    }

    private func verify(_ receiptData: String, path: String) {
        let requestData: [String: Any] = ["receipt-data": receiptData, "password": sharedSecret, "exclude-old-transactions": true]
        var request = URLRequest(url: verifyReceiptHost.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONSerialization.data(withJSONObject: requestData, options: [])
        URLSession.shared.dataTask(with: request) { data, _, error in
            let json = data.flatMap { try? JSONSerialization.jsonObject(with: $0, options: .allowFragments) as? [String: Any] }
            DispatchQueue.main.async {
                guard let json else {
                    print("error validating receipt: \(error?.localizedDescription ?? "no answer")")
                    self.finishRefresh(error)
                    return
                }
                // A sandbox receipt sent to production: Apple's 21007, ask the sandbox.
                if json["status"] as? Int == 21007, path == "verifyReceipt" {
                    self.verify(receiptData, path: "sandbox/verifyReceipt")
                    return
                }
                self.parseReceipt(json)
            }
        }.resume()
    }

    private func parseReceipt(_ json: [String: Any]) {
        if let ms = (json["receipt"] as? [String: Any])?["request_date_ms"] as? String, let value = Double(ms) {
            now = Date(timeIntervalSince1970: value / 1000)
        }
        guard let receipts_array = json["latest_receipt_info"] as? [[String: Any]] else {
            finishRefresh(SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: "verifyReceipt status \(json["status"] ?? "none"): no subscriptions"]))
            return
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss VV"
        for receipt in receipts_array {
            guard let productID = receipt["product_id"] as? String, let expires = receipt["expires_date"] as? String,
                  let date = formatter.date(from: expires) else { continue }
            if date > now || defaults.object(forKey: productID) == nil {
                // An expired date does not overwrite a later one already known.
                defaults.set(date, forKey: productID)
            }
        }
        finishRefresh(nil)
    }

    private func refreshReceipt() {
        let request = SKReceiptRefreshRequest(receiptProperties: nil)
        request.delegate = self
        request.start()
    }

    private func loadProducts() {
        let request = SKProductsRequest(productIdentifiers: productIds)
        request.delegate = self
        request.start()
    }

    /// Tells everyone waiting how the validation ended (nil: it succeeded).
    private func finishRefresh(_ error: Error?) {
        let waiters = refreshWaiters
        refreshWaiters = []
        for waiter in waiters {
            if let error { waiter.failure(error) } else { waiter.success() }
        }
    }
}

// MARK: - SKReceipt Refresh Request Delegate

extension IAPManager: SKRequestDelegate {
    func requestDidFinish(_ request: SKRequest) {
        if request is SKReceiptRefreshRequest {
            validateReceipt()
        }
    }

    func request(_ request: SKRequest, didFailWithError error: Error) {
        if request is SKReceiptRefreshRequest {
            finishRefresh(error)
        } else if request is SKProductsRequest {
            // Not in the article: the paywall waits for its products, so it hears of a failure too.
            didLoadsProducts?([])
            didLoadsProducts = nil
        }
        print("error: \(error.localizedDescription)")
    }
}

// MARK: - SKProducts Request Delegate

extension IAPManager: SKProductsRequestDelegate {
    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        products = response.products
        didLoadsProducts?(products)
        didLoadsProducts = nil
    }
}

// MARK: - SKPayment Transaction Observer

extension IAPManager: SKPaymentTransactionObserver {
    func paymentQueue(_ queue: SKPaymentQueue, updatedTransactions transactions: [SKPaymentTransaction]) {
        for transaction in transactions {
            switch transaction.transactionState {
            case .purchased:
                SKPaymentQueue.default().finishTransaction(transaction)
                notifyIsPurchased(transaction: transaction)
            case .failed:
                SKPaymentQueue.default().finishTransaction(transaction)
                print("purchase error : \(transaction.error?.localizedDescription ?? "")")
                self.failureBlock?(transaction.error)
                cleanUp()
            case .restored:
                SKPaymentQueue.default().finishTransaction(transaction)
                restoredAny = true
                notifyIsPurchased(transaction: transaction)
            case .deferred, .purchasing:
                break
            }
        }
    }

    /// Not in the article: without it, a restore with nothing to restore never ends.
    func paymentQueueRestoreCompletedTransactionsFinished(_ queue: SKPaymentQueue) {
        if !restoredAny {
            refreshSubscriptionsStatus(callback: { self.successBlock?(); self.cleanUp() },
                                       failure: { error in self.failureBlock?(error); self.cleanUp() })
        }
    }

    func paymentQueue(_ queue: SKPaymentQueue, restoreCompletedTransactionsFailedWithError error: Error) {
        failureBlock?(error)
        cleanUp()
    }

    private func notifyIsPurchased(transaction: SKPaymentTransaction) {
        refreshSubscriptionsStatus(callback: {
            self.successBlock?()
            self.cleanUp()
        }, failure: { error in
            // couldn't verify receipt
            self.failureBlock?(error)
            self.cleanUp()
        })
    }

    func cleanUp() {
        self.successBlock = nil
        self.failureBlock = nil
    }
}
