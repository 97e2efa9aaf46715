import StoreKitTypes

/// The accessory buttons a store view can show (`storeButton(_:for:)`). Apple's automatic
/// visibility: cancellation only when presented, restore and redeem hidden, sign-in only with an
/// action, policies shown by subscription stores.
public struct StoreButtonKind: Hashable, Sendable {
    let name: String
    public static let cancellation = StoreButtonKind(name: "cancellation")
    public static let restorePurchases = StoreButtonKind(name: "restorePurchases")
    public static let redeemCode = StoreButtonKind(name: "redeemCode")
    public static let signIn = StoreButtonKind(name: "signIn")
    public static let policies = StoreButtonKind(name: "policies")
}

/// The two policy links of a subscription store.
public struct SubscriptionStorePolicyKind: Hashable, Sendable {
    let name: String
    public static let termsOfService = SubscriptionStorePolicyKind(name: "termsOfService")
    public static let privacyPolicy = SubscriptionStorePolicyKind(name: "privacyPolicy")
}

extension Product {
    /// Which subscription options a store shows to someone already subscribed, relative to their
    /// current plan: higher level (upgrade), lower (downgrade), same level (crossgrade), the plan itself.
    public struct SubscriptionRelationship: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let upgrade = SubscriptionRelationship(rawValue: 1)
        public static let downgrade = SubscriptionRelationship(rawValue: 2)
        public static let crossgrade = SubscriptionRelationship(rawValue: 4)
        public static let current = SubscriptionRelationship(rawValue: 8)
        public static let all: SubscriptionRelationship = [.upgrade, .downgrade, .crossgrade, .current]
    }
}
