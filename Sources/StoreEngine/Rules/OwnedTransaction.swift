import StoreModel

/// What the rules need to know of a past transaction: enough to decide ownership, eligibility and
/// entitlement without decoding its signed payload.
public struct OwnedTransaction: Sendable, Equatable {
    /// The transaction ID.
    public var id: Int64
    /// The original transaction ID; a subscription's periods share it.
    public var originalId: Int64
    /// The product bought.
    public var productId: String
    /// Consumable, non-consumable, non-renewing or auto-renewable.
    public var kind: ProductKind
    /// The subscription group, for an auto-renewable subscription.
    public var groupId: String?
    /// When it was bought.
    public var purchaseMs: Int64
    /// When a subscription period ends; nil for other products.
    public var expiresMs: Int64?
    /// When it was refunded or revoked; nil while it stands.
    public var revokedMs: Int64?
    /// Whether the app called `finish()` on it.
    public var finished: Bool

    /// A transaction as the rules see it.
    public init(
        id: Int64, originalId: Int64, productId: String, kind: ProductKind, groupId: String?,
        purchaseMs: Int64, expiresMs: Int64?, revokedMs: Int64?, finished: Bool
    ) {
        self.id = id
        self.originalId = originalId
        self.productId = productId
        self.kind = kind
        self.groupId = groupId
        self.purchaseMs = purchaseMs
        self.expiresMs = expiresMs
        self.revokedMs = revokedMs
        self.finished = finished
    }
}
