import Foundation

/// The customer's App Store storefront: `countryCode` (ISO 3166-1 alpha-3, "USA") and the
/// store's `identifier` for it ("143441").
open class SKStorefront: NSObject, @unchecked Sendable {
    /// Mirrors StoreKit's `SKStorefront.countryCode`: the ISO 3166-1 alpha-3 code of the customer's country.
    open var countryCode: String { storedCountryCode }
    /// Mirrors StoreKit's `SKStorefront.identifier`: Apple's identifier for the storefront.
    open var identifier: String { storedIdentifier }

    private let storedCountryCode: String
    private let storedIdentifier: String

    init(countryCode: String, identifier: String) {
        storedCountryCode = countryCode
        storedIdentifier = identifier
        super.init()
    }
}
