import StoreKit

/// The article's `ProductsStore`: the products the paywall shows. SwiftUI's `ObservableObject`
/// is not on Linux; `handleUpdateStore` is where a view would be told to redraw.
final class ProductsStore: @unchecked Sendable {
    static let shared = ProductsStore()

    var products: [SKProduct] = []
    var onUpdate: () -> Void = {}

    func handleUpdateStore() { onUpdate() }

    func initializeProducts(ids: Set<String> = [subscription_1, subscription_2], sharedSecret: String = shared_secret,
                            loaded: @escaping () -> Void) {
        IAPManager.shared.startWith(arrayOfIds: ids, sharedSecret: sharedSecret) { products in
            self.products = products
            loaded()
        }
    }
}
