/// What a purchase came to, as the device API's `status` field says it and as StoreKit's
/// `Product.PurchaseResult` distinguishes it: bought, waiting for a parent (Ask to Buy), or
/// waiting for the customer to resolve a purchase issue. The raw values travel on the wire.
public enum PurchaseStatus: String, Sendable, Codable, CaseIterable {
    /// The transaction exists and is signed (`.success`).
    case purchased
    /// Ask to Buy: nothing is bought until the Transaction Manager approves it (`.pending`).
    case pending
    /// A purchase issue (terms, payment) interrupted it until resolved (`.pending` to the app).
    case interrupted
}
