import StoreModel

/// What the rules need to know of a past transaction: enough to decide ownership, eligibility and
/// entitlement without decoding its signed payload.
public struct OwnedTransaction: Sendable, Equatable {
    public var id: Int64
    public var originalId: Int64
    public var productId: String
    public var kind: ProductKind
    public var groupId: String?
    public var purchaseMs: Int64
    public var expiresMs: Int64?
    public var revokedMs: Int64?
    public var finished: Bool

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
