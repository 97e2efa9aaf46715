import StoreModel

/// Apple's rules for switching plans inside a subscription group (levels: 1 is the highest).
/// An upgrade takes effect at once; a downgrade at the next renewal; a crossgrade (same level) at
/// once when both plans have the same duration, otherwise at the next renewal.
public enum PlanChange: Sendable, Equatable {
    case upgrade, downgrade, crossgrade, sameProduct

    /// The kind of change from `current` to `new` by their group levels; `sameProduct` also when
    /// either is not a subscription.
    public static func between(_ current: CatalogProduct, _ new: CatalogProduct) -> PlanChange {
        guard current.id != new.id, let from = current.subscription, let to = new.subscription else { return .sameProduct }
        if to.groupLevel < from.groupLevel { return .upgrade }
        if to.groupLevel > from.groupLevel { return .downgrade }
        return .crossgrade
    }

    /// Whether the change applies now (an upgrade, or a crossgrade of the same duration) rather than
    /// at the next renewal.
    public static func isImmediate(_ change: PlanChange, from current: CatalogProduct, to new: CatalogProduct) -> Bool {
        switch change {
        case .upgrade: true
        case .downgrade, .sameProduct: false
        case .crossgrade: current.subscription?.period == new.subscription?.period
        }
    }

    /// The `DID_CHANGE_RENEWAL_PREF` subtype Apple sends: UPGRADE for changes that apply now,
    /// DOWNGRADE for those that wait for the renewal (downgrades, crossgrades of another duration).
    public static func notificationSubtype(immediate: Bool) -> NotificationSubtype { immediate ? .upgrade : .downgrade }
}
