import StoreKitTypes

extension Product.SubscriptionInfo.RenewalState {
    /// Whether the subscriber has access (subscribed or in grace period): which plan a store
    /// page marks as current and which entitlement it honours.
    public var isActive: Bool { self == .subscribed || self == .inGracePeriod }
}
