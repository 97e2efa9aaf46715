/// The four in-app purchase types, with raw values exactly as `.storekit` files spell `type`.
public enum ProductKind: String, Sendable, CaseIterable {
    case consumable = "Consumable"
    case nonConsumable = "NonConsumable"
    case nonRenewing = "NonRenewingSubscription"
    case autoRenewable = "RecurringSubscription"

    /// The `type` string used in signed transactions (JWS), which differs from the file's spelling.
    public var transactionType: TransactionType {
        switch self {
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .nonRenewing: return .nonRenewing
        case .autoRenewable: return .autoRenewable
        }
    }

    /// The `productType` query value of the App Store Server API (transaction history filters).
    public var queryValue: String {
        switch self {
        case .consumable: return "CONSUMABLE"
        case .nonConsumable: return "NON_CONSUMABLE"
        case .nonRenewing: return "NON_RENEWABLE"
        case .autoRenewable: return "AUTO_RENEWABLE"
        }
    }

    /// A short human label for tables and logs.
    public var displayName: String {
        switch self {
        case .consumable: return "Consumable"
        case .nonConsumable: return "Non-Consumable"
        case .nonRenewing: return "Non-Renewing"
        case .autoRenewable: return "Auto-Renewable"
        }
    }
}
