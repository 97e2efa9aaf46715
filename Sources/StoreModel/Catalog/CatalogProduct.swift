import Foundation

/// One product of the catalog, of any type. Auto-renewable subscriptions carry their group data in
/// `subscription`, so the engine can treat all products alike until it needs it.
public struct CatalogProduct: Sendable, Equatable {
    /// `productID`.
    public var id: String
    /// App Store Connect reference name; never shown to customers.
    public var referenceName: String
    /// `type`: which of the four in-app purchase kinds this is.
    public var kind: ProductKind
    /// `displayPrice` parsed exactly with `Decimal(string:)`; the currency comes from the storefront.
    public var price: Decimal
    /// `familyShareable`: family members get it through Family Sharing.
    public var familyShareable: Bool
    /// `internalID`: App Store Connect's ID in a synced file; not used by the store.
    public var internalID: String?
    /// `localizations[]`: the names and descriptions to pick from for a customer's locale.
    public var localizations: [CatalogLocalization]
    /// Non-nil exactly when `kind == .autoRenewable`.
    public var subscription: CatalogSubscription?

    /// A product as the parser or a test builds it.
    public init(
        id: String, referenceName: String, kind: ProductKind, price: Decimal, familyShareable: Bool = false,
        internalID: String? = nil, localizations: [CatalogLocalization] = [], subscription: CatalogSubscription? = nil
    ) {
        self.id = id
        self.referenceName = referenceName
        self.kind = kind
        self.price = price
        self.familyShareable = familyShareable
        self.internalID = internalID
        self.localizations = localizations
        self.subscription = subscription
    }

    /// The text to show for `locale`: exact match (`fr_FR`), else same language (`fr`), else
    /// `en_US`, else the first localization; nil when the product has none.
    public func localization(for locale: String) -> CatalogLocalization? {
        localizations.bestMatch(for: locale)
    }
}
