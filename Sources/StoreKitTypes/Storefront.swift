import Foundation

/// StoreKit's `Storefront`: the App Store country of the customer's account.
public struct Storefront: Identifiable, Hashable, Sendable {
    /// Apple's numeric storefront ID ("143441").
    public let id: String
    /// ISO 3166-1 alpha-3 country code ("USA").
    public let countryCode: String
    /// The currency the storefront charges in, when known.
    public let currency: Locale.Currency?

    /// A storefront as the client library builds it from the store's answer or a transaction.
    public init(id: String, countryCode: String, currency: Locale.Currency? = nil) {
        self.id = id
        self.countryCode = countryCode
        self.currency = currency
    }
}
