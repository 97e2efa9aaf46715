import Foundation

/// The answer to an `SKProductsRequest`: the products the store sells, and the identifiers it
/// does not know (or does not sell in the customer's storefront).
open class SKProductsResponse: NSObject, @unchecked Sendable {
    open var products: [SKProduct] { storedProducts }
    open var invalidProductIdentifiers: [String] { storedInvalid }

    private let storedProducts: [SKProduct]
    private let storedInvalid: [String]

    init(products: [SKProduct], invalidProductIdentifiers: [String]) {
        storedProducts = products
        storedInvalid = invalidProductIdentifiers
        super.init()
    }

    public override init() {
        storedProducts = []
        storedInvalid = []
        super.init()
    }
}
