/// What a subscription backend says this customer's paywall shows (an "offering", as RevenueCat
/// and `openstore backend` serve them): the products in order and the copy. A page that reads
/// `StoreSnapshot.offering` sells these instead of its built-in choice, so an experiment run in the
/// backend changes the demo paywall without touching the app.
public struct RemoteOffering: Sendable, Equatable {
    /// The offering's ID in the backend (`default`, `spring_sale`).
    public var id: String
    /// The products to show, in the offering's package order.
    public var productIDs: [String]
    /// The package the paywall should select first, as a product ID.
    public var preselectedProductID: String?
    /// The offering's `title` metadata, if any.
    public var title: String?
    /// The offering's `subtitle` metadata, if any.
    public var subtitle: String?

    public init(id: String, productIDs: [String], preselectedProductID: String? = nil, title: String? = nil, subtitle: String? = nil) {
        self.id = id
        self.productIDs = productIDs
        self.preselectedProductID = preselectedProductID
        self.title = title
        self.subtitle = subtitle
    }

    /// The offering's products that `groupID` holds, in the offering's order; nil when it names none of them.
    public func productIDs(in groupID: String, of store: StoreSnapshot) -> [String]? {
        let inGroup = productIDs.filter { store.product($0)?.subscription?.subscriptionGroupID == groupID }
        return inGroup.isEmpty ? nil : inGroup
    }
}
