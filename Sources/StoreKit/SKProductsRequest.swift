import Foundation
import OpenStoreKit

/// Loads products by identifier (StoreKit 2's `Product.products(for:)` underneath): the delegate
/// gets `productsRequest(_:didReceive:)` and then `requestDidFinish(_:)`, or
/// `request(_:didFailWithError:)` with an `SKError`, on the main queue.
open class SKProductsRequest: SKRequest, @unchecked Sendable {
    private let productIdentifiers: Set<String>

    /// Mirrors StoreKit's `SKProductsRequest(productIdentifiers:)`: the products to load; call `start()` to send.
    public init(productIdentifiers: Set<String>) {
        self.productIdentifiers = productIdentifiers
        super.init()
    }

    override func perform(_ connection: StoreConnection) async {
        let requested = productIdentifiers
        do {
            let loaded = try await Product.products(for: requested)
            let products = loaded.sorted { $0.id < $1.id }.map(SKProduct.init)
            let found = Set(loaded.map(\.id))
            let response = SKProductsResponse(products: products, invalidProductIdentifiers: requested.subtracting(found).sorted())
            await deliver {
                (self.delegate as? any SKProductsRequestDelegate)?.productsRequest(self, didReceive: response)
                self.delegate?.requestDidFinish(self)
            }
        } catch {
            let failure = SKError(storeKit: error)
            await deliver { self.fail(failure) }
        }
    }
}
