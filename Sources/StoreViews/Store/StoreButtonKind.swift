import StoreKitTypes

/// The accessory buttons a store view can show (`storeButton(_:for:)`). Apple's automatic
/// visibility: cancellation only when presented, restore and redeem hidden, sign-in only with an
/// action, policies shown by subscription stores.
public struct StoreButtonKind: Hashable, Sendable {
    let name: String
    /// Mirrors `StoreButtonKind.cancellation`: the Close button, shown automatically only when presented.
    public static let cancellation = StoreButtonKind(name: "cancellation")
    /// Mirrors `.restorePurchases`: "Restore Purchases", hidden unless made visible.
    public static let restorePurchases = StoreButtonKind(name: "restorePurchases")
    /// Mirrors `.redeemCode`: an offer-code field and "Redeem Code" button, hidden unless made visible.
    public static let redeemCode = StoreButtonKind(name: "redeemCode")
    /// Mirrors `.signIn`: "Sign In", shown only when `subscriptionStoreSignInAction(_:)` gives an action.
    public static let signIn = StoreButtonKind(name: "signIn")
    /// Mirrors `.policies`: the Terms of Service and Privacy Policy links, hidden unless made visible.
    public static let policies = StoreButtonKind(name: "policies")
}

/// The two policy links of a subscription store.
public struct SubscriptionStorePolicyKind: Hashable, Sendable {
    let name: String
    /// Mirrors `SubscriptionStorePolicyKind.termsOfService`: the "Terms of Service" link.
    public static let termsOfService = SubscriptionStorePolicyKind(name: "termsOfService")
    /// Mirrors `.privacyPolicy`: the "Privacy Policy" link.
    public static let privacyPolicy = SubscriptionStorePolicyKind(name: "privacyPolicy")
}

extension Product {
    /// Which subscription options a store shows to someone already subscribed, relative to their
    /// current plan: higher level (upgrade), lower (downgrade), same level (crossgrade), the plan itself.
    public struct SubscriptionRelationship: OptionSet, Hashable, Sendable {
        /// The bits of the set: upgrade 1, downgrade 2, crossgrade 4, current 8.
        public let rawValue: Int
        /// A set from its bits; the named members are usually clearer.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Mirrors `SubscriptionRelationship.upgrade`: plans of a higher level of service.
        public static let upgrade = SubscriptionRelationship(rawValue: 1)
        /// Mirrors `.downgrade`: plans of a lower level of service.
        public static let downgrade = SubscriptionRelationship(rawValue: 2)
        /// Mirrors `.crossgrade`: other plans of the same level.
        public static let crossgrade = SubscriptionRelationship(rawValue: 4)
        /// Mirrors `.current`: the subscriber's own plan.
        public static let current = SubscriptionRelationship(rawValue: 8)
        /// Mirrors `.all`: every plan, the stores' default.
        public static let all: SubscriptionRelationship = [.upgrade, .downgrade, .crossgrade, .current]
    }
}
