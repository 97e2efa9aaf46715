import Foundation
import StoreKit

/// App code as a StoreKit 2 app writes it (the shape of Apple's sample `Store`): it loads the
/// products, buys, listens to `Transaction.updates` from launch, finishes what it delivers, and
/// works out what the customer is entitled to. Nothing in it knows about tests or Linux.
@MainActor
final class GardenStore {
    enum StoreError: Error { case failedVerification }

    static let productIDs = ["garden.seeds", "garden.guide", "garden.monthly", "garden.yearly"]

    private(set) var products: [Product] = []
    private(set) var ownsGuide = false
    private(set) var membership: Product?
    private(set) var seedPackets = 0
    private var updates: Task<Void, Never>?
    /// A transaction can reach the app twice (the purchase's answer, and the updates listener
    /// replaying it while still unfinished); consumables are counted once.
    private var delivered: Set<UInt64> = []

    init() {
        updates = listenForTransactions()
    }

    deinit { updates?.cancel() }

    func loadProducts() async throws {
        products = try await Product.products(for: Self.productIDs).sorted { $0.price < $1.price }
    }

    /// Buys a product; returns the transaction when it completed now (nil when pending or cancelled).
    @discardableResult
    func purchase(_ product: Product) async throws -> Transaction? {
        switch try await product.purchase() {
        case .success(let verification):
            let transaction = try checkVerified(verification)
            await deliver(transaction)
            return transaction
        case .pending, .userCancelled:
            return nil
        @unknown default:
            return nil
        }
    }

    /// What the customer owns now, from `Transaction.currentEntitlements`.
    func refreshEntitlements() async {
        var guide = false
        var membership: Product?
        for await result in Transaction.currentEntitlements {
            guard case .verified(let transaction) = result else { continue }
            switch transaction.productType {
            case .nonConsumable where transaction.productID == "garden.guide": guide = true
            case .autoRenewable: membership = products.first { $0.id == transaction.productID }
            default: break
            }
        }
        ownsGuide = guide
        self.membership = membership
    }

    /// The membership's renewal state, as a paywall shows it.
    func membershipState() async throws -> Product.SubscriptionInfo.RenewalState? {
        guard let monthly = products.first(where: { $0.id == "garden.monthly" }) else { return nil }
        return try await monthly.subscription?.status.first?.state
    }

    private func listenForTransactions() -> Task<Void, Never> {
        Task { [weak self] in
            for await result in Transaction.updates {
                guard let self, case .verified(let transaction) = result else { continue }
                await self.deliver(transaction)
            }
        }
    }

    private func deliver(_ transaction: Transaction) async {
        if transaction.productType == .consumable && transaction.revocationDate == nil, delivered.insert(transaction.id).inserted {
            seedPackets += transaction.purchasedQuantity
        }
        await transaction.finish()
        await refreshEntitlements()
    }

    private func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        switch result {
        case .unverified: throw StoreError.failedVerification
        case .verified(let value): return value
        }
    }
}
