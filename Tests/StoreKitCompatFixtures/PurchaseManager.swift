import StoreKit
import Observation

/// An `@Observable` purchase manager, as newer apps write one: entitlements come from
/// `Transaction.currentEntitlements`, restore is `AppStore.sync()`, and a listener keeps the set
/// of purchased IDs current.
@Observable
@MainActor
public final class PurchaseManager {
    public private(set) var products: [Product] = []
    public private(set) var purchasedProductIDs = Set<String>()
    public private(set) var productsLoaded = false
    public private(set) var updateCount = 0

    private let productIDs: [String]
    @ObservationIgnored private var updates: Task<Void, Never>? = nil

    public init(productIDs: [String]) {
        self.productIDs = productIDs
        updates = observeTransactionUpdates()
    }

    isolated deinit {
        updates?.cancel()
    }

    public func stop() {
        updates?.cancel()
    }

    public var hasUnlockedPro: Bool { !purchasedProductIDs.isEmpty }

    public func loadProducts() async throws {
        guard !productsLoaded else { return }
        products = try await Product.products(for: productIDs)
        productsLoaded = true
    }

    public func purchase(_ product: Product) async throws {
        let result = try await product.purchase()
        switch result {
        case let .success(.verified(transaction)):
            await transaction.finish()
            await updatePurchasedProducts()
        case let .success(.unverified(_, error)):
            print("Unverified purchase: \(error)")
        case .pending:
            break
        case .userCancelled:
            break
        @unknown default:
            break
        }
    }

    public func updatePurchasedProducts() async {
        var owned = Set<String>()
        for await result in Transaction.currentEntitlements {
            guard case .verified(let transaction) = result else { continue }
            if transaction.revocationDate == nil {
                owned.insert(transaction.productID)
            }
        }
        purchasedProductIDs = owned
    }

    public func restorePurchases() async throws {
        try await AppStore.sync()
        await updatePurchasedProducts()
    }

    private func observeTransactionUpdates() -> Task<Void, Never> {
        Task(priority: .background) { [weak self] in
            for await verificationResult in Transaction.updates {
                guard case .verified(let transaction) = verificationResult else { continue }
                await transaction.finish()
                await self?.noteUpdate()
            }
        }
    }

    private func noteUpdate() async {
        updateCount += 1
        await updatePurchasedProducts()
    }
}
