import StoreKit
import Combine

/// Food Truck's product controller: one non-consumable, and whether the customer owns it.
@MainActor
public final class StoreProductController: ObservableObject {
    @Published public private(set) var product: Product?
    @Published public private(set) var isEntitled: Bool = false

    public let productID: String

    public init(identifiedBy productID: String) {
        self.productID = productID
    }

    public func load() async {
        product = try? await Product.products(for: [productID]).first
        await updateEntitlement()
    }

    public func purchase(using store: StoreActor) async throws -> Bool {
        guard let product else { return false }
        if case .success(.verified) = try await store.purchase(product) {
            isEntitled = true
            return true
        }
        return false
    }

    func set(isEntitled: Bool) {
        self.isEntitled = isEntitled
    }

    private func updateEntitlement() async {
        switch await Transaction.currentEntitlement(for: productID) {
        case .verified: isEntitled = true
        case .unverified(_, let error):
            print("Unverified entitlement for \(productID): \(error)")
            fallthrough
        case .none: isEntitled = false
        }
    }
}
