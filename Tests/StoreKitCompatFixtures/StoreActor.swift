import StoreKit

// A Food Truck-style store: one actor owns the StoreKit work (loading products, the
// transaction and subscription-status listeners) and hands what it learns to small
// main-actor controllers that a view would observe.

public actor StoreActor {
    public static let annualHistoryID = "com.example.foodtruck.annualhistory"
    public static let socialFeedMonthlyID = "com.example.foodtruck.socialfeedplus.monthly"
    public static let socialFeedYearlyID = "com.example.foodtruck.socialfeedplus.yearly"
    public static let allProductIDs: Set<String> = [annualHistoryID, socialFeedMonthlyID, socialFeedYearlyID]

    private var loadedProducts: [Product.ID: Product] = [:]
    private var lastLoadError: Error?
    private var productLoadingTask: Task<Void, Never>?
    private var transactionUpdatesTask: Task<Void, Never>?
    private var statusUpdatesTask: Task<Void, Never>?
    private var storefrontUpdatesTask: Task<Void, Never>?

    public nonisolated let productController: StoreProductController
    public nonisolated let subscriptionController: StoreSubscriptionController

    public init() async {
        productController = await StoreProductController(identifiedBy: Self.annualHistoryID)
        subscriptionController = await StoreSubscriptionController(productIDs: [Self.socialFeedMonthlyID, Self.socialFeedYearlyID])
        startListening()
    }

    private func startListening() {
        transactionUpdatesTask = Task(priority: .background) {
            for await update in Transaction.updates {
                await self.handle(transaction: update)
            }
        }
        statusUpdatesTask = Task(priority: .background) {
            for await update in Product.SubscriptionInfo.Status.updates {
                await subscriptionController.handle(update: update)
            }
        }
        storefrontUpdatesTask = Task(priority: .background) {
            for await update in Storefront.updates {
                print("Storefront changed to \(update.countryCode)")
                // Prices differ per storefront: load again.
                self.productLoadingTask = nil
                _ = await self.product(identifiedBy: Self.annualHistoryID)
            }
        }
    }

    /// Stops the listeners (the app is going away).
    public func stop() {
        transactionUpdatesTask?.cancel()
        statusUpdatesTask?.cancel()
        storefrontUpdatesTask?.cancel()
    }

    public func product(identifiedBy productID: Product.ID) async -> Product? {
        await waitUntilProductsLoaded()
        return loadedProducts[productID]
    }

    private func setupProductLoadingTask() {
        guard productLoadingTask == nil else { return }
        productLoadingTask = Task(priority: .background) {
            do {
                let products = try await Product.products(for: Self.allProductIDs)
                self.loadedProducts = Dictionary(uniqueKeysWithValues: products.map { ($0.id, $0) })
                self.lastLoadError = nil
            } catch {
                print("Failed to get in-app products: \(error)")
                self.lastLoadError = error
                self.productLoadingTask = nil
            }
        }
    }

    private func waitUntilProductsLoaded() async {
        if let task = productLoadingTask {
            await task.value
        } else if loadedProducts.isEmpty {
            setupProductLoadingTask()
            await productLoadingTask?.value
        }
    }

    private func handle(transaction: VerificationResult<Transaction>) async {
        guard case .verified(let transaction) = transaction else {
            print("Received unverified transaction: \(transaction)")
            return
        }
        if transaction.productType == .autoRenewable {
            // The status listener updates the subscription controller.
            await subscriptionController.record(transaction)
        } else if transaction.productID == Self.annualHistoryID {
            await productController.set(isEntitled: transaction.revocationDate == nil)
        }
        await transaction.finish()
    }

    @discardableResult
    public func purchase(_ product: Product) async throws -> Product.PurchaseResult {
        let result = try await product.purchase()
        if case .success(.verified(let transaction)) = result {
            await handle(transaction: .verified(transaction))
        }
        return result
    }
}
