/// A subscription group: a customer holds at most one active subscription per group, and moves
/// between its products by upgrade, downgrade or crossgrade.
public struct SubscriptionGroup: Sendable, Equatable {
    /// The group's `id`, which products name as their group (StoreKit's `subscriptionGroupID`).
    public var id: String
    /// `name` in the file: the reference name.
    public var referenceName: String
    /// `localizations[]`: the group's customer-facing names; see `displayName(for:)`.
    public var localizations: [CatalogLocalization]
    /// The group's products by level: `groupNumber` ascending (1, the highest level, first),
    /// ties in file order.
    public var productIDs: [String]

    /// A group as the parser or a test builds it.
    public init(id: String, referenceName: String, localizations: [CatalogLocalization] = [], productIDs: [String] = []) {
        self.id = id
        self.referenceName = referenceName
        self.localizations = localizations
        self.productIDs = productIDs
    }

    /// The group name to show for `locale` (SubscriptionInfo.groupDisplayName): the localized
    /// `displayName` when there is a non-empty one, else the reference name.
    public func displayName(for locale: String) -> String {
        if let match = localizations.filter({ !$0.displayName.isEmpty }).bestMatch(for: locale) {
            return match.displayName
        }
        return referenceName
    }
}
