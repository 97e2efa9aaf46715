import StoreKit
import Combine

// An SKDemo-style store class, written as an app writes it: one `ObservableObject` that loads
// the products, listens for transactions from `init`, verifies each one, and publishes what the
// customer owns. Only `import StoreKit` (and Combine, for `ObservableObject`) — Foundation comes
// with StoreKit, as on Apple platforms.

public typealias Transaction = StoreKit.Transaction
public typealias RenewalInfo = StoreKit.Product.SubscriptionInfo.RenewalInfo
public typealias RenewalState = StoreKit.Product.SubscriptionInfo.RenewalState

public enum StoreError: Error {
    case failedVerification
}

@MainActor
public final class Store: ObservableObject {
    @Published public private(set) var consumables: [Product] = []
    @Published public private(set) var nonConsumables: [Product] = []
    @Published public private(set) var subscriptions: [Product] = []
    @Published public private(set) var nonRenewables: [Product] = []

    @Published public private(set) var purchasedNonConsumables: [Product] = []
    @Published public private(set) var purchasedSubscriptions: [Product] = []
    @Published public private(set) var subscriptionGroupStatus: RenewalState?
    /// Every transaction the update listener delivered, newest last (the app shows a history).
    @Published public private(set) var deliveredUpdates: [Transaction] = []
    @Published public private(set) var consumableCounts: [String: Int] = [:]

    var updateListenerTask: Task<Void, Error>? = nil
    private let productIDs: [String]

    public init(productIDs: [String]) {
        self.productIDs = productIDs
        // Start listening before anything else, so no transaction is missed.
        updateListenerTask = listenForTransactions()
        Task {
            await requestProducts()
            await updateCustomerProductStatus()
        }
    }

    isolated deinit {
        updateListenerTask?.cancel()
    }

    /// Stops listening (the app's scene goes away).
    public func stop() {
        updateListenerTask?.cancel()
    }

    func listenForTransactions() -> Task<Void, Error> {
        Task.detached {
            // Transactions that did not come from a direct call to `purchase()`.
            for await result in Transaction.updates {
                do {
                    let transaction = try self.checkVerified(result)
                    await self.deliver(transaction)
                    await self.updateCustomerProductStatus()
                    await transaction.finish()
                } catch {
                    print("Transaction failed verification: \(error)")
                }
            }
        }
    }

    public func requestProducts() async {
        do {
            let storeProducts = try await Product.products(for: productIDs)
            var newConsumables: [Product] = []
            var newNonConsumables: [Product] = []
            var newSubscriptions: [Product] = []
            var newNonRenewables: [Product] = []
            for product in storeProducts {
                switch product.type {
                case .consumable: newConsumables.append(product)
                case .nonConsumable: newNonConsumables.append(product)
                case .autoRenewable: newSubscriptions.append(product)
                case .nonRenewable: newNonRenewables.append(product)
                default: print("Unknown product: \(product.id)")
                }
            }
            consumables = sortByPrice(newConsumables)
            nonConsumables = sortByPrice(newNonConsumables)
            subscriptions = sortByPrice(newSubscriptions)
            nonRenewables = sortByPrice(newNonRenewables)
        } catch {
            print("Failed product request from the App Store server: \(error)")
        }
    }

    public func purchase(_ product: Product) async throws -> Transaction? {
        let result = try await product.purchase(options: [.appAccountToken(UUID())])
        switch result {
        case .success(let verification):
            let transaction = try checkVerified(verification)
            deliver(transaction)
            await updateCustomerProductStatus()
            await transaction.finish()
            return transaction
        case .userCancelled, .pending:
            return nil
        @unknown default:
            return nil
        }
    }

    public func isPurchased(_ product: Product) async throws -> Bool {
        switch product.type {
        case .nonConsumable: return purchasedNonConsumables.contains(product)
        case .autoRenewable: return purchasedSubscriptions.contains(product)
        default: return false
        }
    }

    nonisolated func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        switch result {
        case .unverified:
            throw StoreError.failedVerification
        case .verified(let safe):
            return safe
        }
    }

    func deliver(_ transaction: Transaction) {
        deliveredUpdates.append(transaction)
        if transaction.productType == .consumable, transaction.revocationDate == nil {
            consumableCounts[transaction.productID, default: 0] += transaction.purchasedQuantity
        }
    }

    public func updateCustomerProductStatus() async {
        var purchasedNonConsumables: [Product] = []
        var purchasedSubscriptions: [Product] = []
        for await result in Transaction.currentEntitlements {
            do {
                let transaction = try checkVerified(result)
                switch transaction.productType {
                case .nonConsumable:
                    if let product = nonConsumables.first(where: { $0.id == transaction.productID }) {
                        purchasedNonConsumables.append(product)
                    }
                case .autoRenewable:
                    if let product = subscriptions.first(where: { $0.id == transaction.productID }) {
                        purchasedSubscriptions.append(product)
                    }
                default:
                    break
                }
            } catch {
                print("Entitlement failed verification: \(error)")
            }
        }
        self.purchasedNonConsumables = purchasedNonConsumables
        self.purchasedSubscriptions = purchasedSubscriptions
        // The group's status: the highest state any subscription in it is in.
        subscriptionGroupStatus = try? await subscriptions.first?.subscription?.status.max { lhs, rhs in
            lhs.state.rawValue > rhs.state.rawValue
        }?.state
    }

    func sortByPrice(_ products: [Product]) -> [Product] {
        products.sorted { $0.price < $1.price }
    }
}
