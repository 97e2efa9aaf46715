import Foundation

/// An App Store storefront: the country a customer's account belongs to, which fixes the
/// currency prices are charged in and the `storefront` / `storefrontId` written into every
/// signed transaction.
public struct Storefront: Sendable, Equatable, Hashable {
    /// ISO 3166-1 alpha-3 country code, as StoreKit and the `_storefront` setting use it ("USA").
    public var countryCode: String
    /// Apple's numeric storefront ID ("143441" for the USA), as in `storefrontId`.
    public var id: String
    /// ISO 4217 code of the currency the App Store charges in there ("USD"). Many smaller
    /// storefronts are priced in USD rather than the local currency, as at Apple.
    public var currency: String
    /// The country's main locale ("en_US", "fr_FR", "ja_JP"), used to format prices.
    public var locale: String

    /// A storefront with its codes, currency and formatting locale; `lookup(_:)` gives the built-in ones.
    public init(countryCode: String, id: String, currency: String, locale: String) {
        self.countryCode = countryCode
        self.id = id
        self.currency = currency
        self.locale = locale
    }

    /// The storefront for an alpha-3 country code, ignoring case ("usa", "FRA").
    public static func lookup(_ countryCode: String) -> Storefront? {
        StorefrontTable.byCountryCode[countryCode.uppercased()]
    }

    /// The storefront with Apple's numeric storefront ID ("143442").
    public static func lookup(id: String) -> Storefront? {
        StorefrontTable.byID[id]
    }

    /// Every known App Store storefront, sorted by country code.
    public static var all: [Storefront] {
        StorefrontTable.all
    }

    /// The United States storefront, Xcode's default.
    public static var unitedStates: Storefront {
        lookup("USA") ?? Storefront(countryCode: "USA", id: "143441", currency: "USD", locale: "en_US")
    }

    /// The price as StoreKit's `displayPrice` shows it here: "$4.99" (USA), "4,99 €" (FRA),
    /// "¥500" (JPN). See `PriceFormatter` for the normalizations applied.
    public func formatted(_ price: Decimal) -> String {
        PriceFormatter.format(price, currency: currency, locale: locale)
    }

    /// The price in milliunits of the currency (4.99 → 4990), as the `price` field of signed
    /// transactions carries it.
    public func milliunits(_ price: Decimal) -> Int64 {
        PriceFormatter.milliunits(price)
    }
}
