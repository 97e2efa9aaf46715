import Foundation

/// StoreKit's `Product`: an in-app purchase as one storefront sees it. Values come from the
/// store's product listing; the client library adds `products(for:)`, `purchase(options:)` and
/// the entitlement look-ups.
public struct Product: Identifiable, Hashable, Sendable {
    /// Mirrors StoreKit's `Product.ID`: product identifiers are plain strings, as in App Store Connect.
    public typealias ID = String

    /// `Product.ProductType`, with StoreKit's raw values.
    public struct ProductType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// StoreKit's raw value for the type ("Consumable", "Auto-Renewable").
        public let rawValue: String
        /// Wraps any type string, so a type this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `Product.ProductType.consumable`: used up and bought again (coins, lives).
        public static let consumable = ProductType(rawValue: "Consumable")
        /// Mirrors StoreKit's `Product.ProductType.nonConsumable`: bought once, owned for good.
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        /// Mirrors StoreKit's `Product.ProductType.nonRenewable`: a subscription for a set time that does not renew by itself.
        public static let nonRenewable = ProductType(rawValue: "Non-Renewable")
        /// Mirrors StoreKit's `Product.ProductType.autoRenewable`: a subscription that renews until cancelled.
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable")
        /// The raw value, so logs print "Consumable" rather than the struct.
        public var description: String { rawValue }
    }

    /// Mirrors StoreKit's `Product.id`: the product identifier from App Store Connect (or the catalog).
    public let id: ID
    /// Mirrors StoreKit's `Product.type`: which kind of in-app purchase this is.
    public let type: ProductType
    /// Mirrors StoreKit's `Product.displayName`: the product's name, localized for the storefront.
    public let displayName: String
    /// Mirrors StoreKit's `Product.description`: the product's description, localized for the storefront.
    public let description: String
    /// Mirrors StoreKit's `Product.price`: the price in the storefront's currency, for arithmetic;
    /// show `displayPrice` to customers.
    public let price: Decimal
    /// The price formatted for the storefront ("$4.99", "4,99 €").
    public let displayPrice: String
    /// Mirrors StoreKit's `Product.isFamilyShareable`: whether family members get it through Family Sharing.
    public let isFamilyShareable: Bool
    /// Present for auto-renewable subscriptions only.
    public let subscription: SubscriptionInfo?
    /// The product as the store described it, in JSON.
    public let jsonRepresentation: Data
    /// ISO 4217 code of the storefront's currency.
    public let currencyCode: String
    /// The locale the storefront formats prices in ("fr_FR").
    public let priceLocaleIdentifier: String

    /// A product as the client library builds it from the store's listing; tests and previews can build one too.
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
