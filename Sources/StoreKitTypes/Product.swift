import Foundation

/// StoreKit's `Product`: an in-app purchase as one storefront sees it. Values come from the
/// store's product listing; the client library adds `products(for:)`, `purchase(options:)` and
/// the entitlement look-ups.
public struct Product: Identifiable, Hashable, Sendable {
    public typealias ID = String

    /// `Product.ProductType`, with StoreKit's raw values.
    public struct ProductType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let consumable = ProductType(rawValue: "Consumable")
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        public static let nonRenewable = ProductType(rawValue: "Non-Renewable")
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable")
        public var description: String { rawValue }
    }

    public let id: ID
    public let type: ProductType
    public let displayName: String
    public let description: String
    public let price: Decimal
    /// The price formatted for the storefront ("$4.99", "4,99 €").
    public let displayPrice: String
    public let isFamilyShareable: Bool
    /// Present for auto-renewable subscriptions only.
    public let subscription: SubscriptionInfo?
    /// The product as the store described it, in JSON.
    public let jsonRepresentation: Data
    /// ISO 4217 code of the storefront's currency.
    public let currencyCode: String
    /// The locale the storefront formats prices in ("fr_FR").
    public let priceLocaleIdentifier: String

    public init(id: ID, type: ProductType, displayName: String, description: String, price: Decimal, displayPrice: String,
                isFamilyShareable: Bool = false, subscription: SubscriptionInfo? = nil, jsonRepresentation: Data = Data(),
                currencyCode: String, priceLocaleIdentifier: String) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.isFamilyShareable = isFamilyShareable
        self.subscription = subscription
        self.jsonRepresentation = jsonRepresentation
        self.currencyCode = currencyCode
        self.priceLocaleIdentifier = priceLocaleIdentifier
    }

    /// Formats amounts as the storefront does: `product.price.formatted(product.priceFormatStyle)`
    /// gives `displayPrice`'s style for any amount (a per-month price, a total for a quantity).
    public var priceFormatStyle: Decimal.FormatStyle.Currency {
        Decimal.FormatStyle.Currency(code: currencyCode, locale: Locale(identifier: priceLocaleIdentifier))
    }
}
