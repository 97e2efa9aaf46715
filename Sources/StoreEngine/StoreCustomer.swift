import StoreStorage

/// A customer account in a world: the Apple Account a purchase is made with, its storefront and
/// language. The engine's own type, so callers above the engine never see storage records.
public struct StoreCustomer: Sendable, Equatable, Codable {
    /// The world the customer lives in; the same name in another world is another customer.
    public var world: String
    /// The customer's ID, as devices and the admin API name them.
    public var name: String
    /// ISO 3166-1 alpha-3 storefront code (`USA`).
    public var storefront: String
    /// The account's language, such as `en_US`, which product descriptions follow.
    public var locale: String
    /// When the customer was created, on the world's clock.
    public var createdMs: Int64

    /// A customer with the given account details.
    public init(world: String, name: String, storefront: String, locale: String, createdMs: Int64) {
        self.world = world
        self.name = name
        self.storefront = storefront
        self.locale = locale
        self.createdMs = createdMs
    }

    init(_ record: CustomerRecord) {
        self.init(world: record.world, name: record.name, storefront: record.storefront, locale: record.locale, createdMs: record.createdMs)
    }
}
