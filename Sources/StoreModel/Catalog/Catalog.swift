import Foundation

/// A store catalog read from an Xcode `.storekit` file: every product, the subscription groups,
/// the test settings and the policies. It is the one source of truth for what the store sells.
public struct Catalog: Sendable, Equatable {
    /// The file's own `identifier`; absent in the first 1.0 files.
    public var identifier: String?
    /// The file's `version`; informational, nil when the file has none.
    public var formatVersion: CatalogVersion?
    /// All products of every type, in this order: `products[]`, `nonRenewingSubscriptions[]`,
    /// then each group's subscriptions, each in file order.
    public var products: [CatalogProduct]
    /// `subscriptionGroups[]`, in file order; each lists its products by level.
    public var subscriptionGroups: [SubscriptionGroup]
    /// The file's `settings`: the test-environment defaults a world starts from.
    public var settings: CatalogSettings
    /// `appPolicies`: the EULA and privacy policy store views show; nil when the file has none.
    public var appPolicies: AppPolicies?
    /// `subscriptionOffersKeyPair`.
    public var offerKeyPair: OfferKeyPair?

    /// A catalog built in code (tests, the demo catalogs); files go through `decode(_:)` or `load(contentsOf:)`.
    public init(
        identifier: String? = nil, formatVersion: CatalogVersion? = nil, products: [CatalogProduct] = [],
        subscriptionGroups: [SubscriptionGroup] = [], settings: CatalogSettings = CatalogSettings(),
        appPolicies: AppPolicies? = nil, offerKeyPair: OfferKeyPair? = nil
    ) {
        self.identifier = identifier
        self.formatVersion = formatVersion
        self.products = products
        self.subscriptionGroups = subscriptionGroups
        self.settings = settings
        self.appPolicies = appPolicies
        self.offerKeyPair = offerKeyPair
    }

    /// The product with this `productID`, of any type.
    public func product(_ id: String) -> CatalogProduct? {
        products.first(where: { $0.id == id })
    }

    /// The subscription group with this `id`.
    public func group(_ id: String) -> SubscriptionGroup? {
        subscriptionGroups.first(where: { $0.id == id })
    }

    /// Reads a `.storekit` document. Unknown keys are ignored; every fault found is reported at
    /// once, with its JSON path, in file order. Oddities Xcode tolerates are accepted (see
    /// `read(_:strict:)` to see them).
    public static func decode(_ data: Data) throws(CatalogError) -> Catalog {
        try read(data).catalog
    }

    /// Reads a `.storekit` file. A file that cannot be read is reported as a fault with path "".
    public static func load(contentsOf url: URL) throws(CatalogError) -> Catalog {
        try read(contentsOf: url).catalog
    }

    /// Reads a `.storekit` document and reports what Xcode tolerates but a tidy file would not have,
    /// as warnings with their JSON paths. With `strict`, those warnings are faults instead, so a
    /// file loads only if it has none (`catalog validate --strict`).
    public static func read(_ data: Data, strict: Bool = false) throws(CatalogError) -> CatalogReading {
        try CatalogParser.parse(data, strict: strict)
    }

    /// `read(_:strict:)` for a file; a file that cannot be read is a fault with path "".
    public static func read(contentsOf url: URL, strict: Bool = false) throws(CatalogError) -> CatalogReading {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CatalogError(faults: [CatalogFault(path: "", message: "cannot read \(url.path): \(error.localizedDescription)")])
        }
        return try read(data, strict: strict)
    }
}
