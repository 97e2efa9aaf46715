import Foundation
import StoreKitTypes
import StoreModel

extension Product {
    /// The catalog's products as a storefront sells them, with texts for `locale` (the storefront's
    /// own locale when nil). Built through the device API's listing (`ProductListing`), as the
    /// client library builds them, so a page and an app see the same product. Used for
    /// `openstore preview` and tests; the server's pages take the engine's listing.
    public static func products(of catalog: Catalog, storefront: StoreModel.Storefront, locale: String? = nil) -> [Product] {
        let locale = locale ?? storefront.locale
        return products(listed: catalog.products.map { ProductListing($0, catalog: catalog, storefront: storefront, locale: locale) })
    }

    /// Products from the store's listing, leaving out (never crashing on) an item that is not a
    /// product StoreKit could show: a price or period the listing cannot carry.
    public static func products(listed items: [ProductListing]) -> [Product] {
        items.compactMap { try? Product(listing: $0) }
    }
}
