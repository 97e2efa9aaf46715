import Foundation

/// StoreKit 1's `SKPayment.applicationUsername` in a StoreKit 2 world. "What's new with in-app
/// purchase" (WWDC22): when the original API's `applicationUsername` holds a UUID, the App Store
/// sets that UUID as the transaction's `appAccountToken`; any other string is kept with the
/// payment only and never reaches the signed transaction.
public enum ApplicationUsername {
    /// The `appAccountToken` an `applicationUsername` sets (lowercase, as the store signs tokens),
    /// or nil when it is not a UUID.
    public static func appAccountToken(for applicationUsername: String?) -> String? {
        guard let applicationUsername, let uuid = UUID(uuidString: applicationUsername) else { return nil }
        return uuid.uuidString.lowercased()
    }
}
