import Foundation

/// The answer to an `SKProductsRequest`: the products the store sells, and the identifiers it
/// does not know (or does not sell in the customer's storefront).
open class SKProductsResponse: NSObject, @unchecked Sendable {
    /// Mirrors StoreKit's `SKProductsResponse.products`: the products found, sorted by identifier.
    open var products: [SKProduct] { storedProducts }
    /// Mirrors StoreKit's `SKProductsResponse.invalidProductIdentifiers`: the identifiers asked for that
    /// the store did not return, sorted.
    open var invalidProductIdentifiers: [String] { storedInvalid }

    private let storedProducts: [SKProduct]
    private let storedInvalid: [String]

    init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        storedProducts = products
        storedInvalid = invalidProductIdentifiers
        super.init()
    }

    /// An empty response, as `SKProductsResponse()` is on Apple platforms (tests subclass it).
    public override init() {
        storedProducts = []
        storedInvalid = []
        super.init()
    }
}
