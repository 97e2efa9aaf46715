import StoreModel

/// Something that happened to a purchase that App Store Server Notifications V2 reports:
/// Apple's `notificationType` and `subtype` strings, and what it concerns.
public struct LifecycleEvent: Codable, Sendable, Equatable {
    /// Apple's `notificationType`, such as `DID_RENEW`.
    public var type: String
    /// Apple's `subtype`, if the type has one.
    public var subtype: String?
    /// The app it concerns.
    public var bundleId: String
    /// The customer it concerns.
    public var customer: String
    /// The transaction it is about, if any.
    public var transactionId: Int64?
    /// The original transaction ID of that purchase or subscription, if any.
    public var originalTransactionId: Int64?
    /// When it happened, on the world's clock.
    public var atMs: Int64

    /// An event of `type` and optional `subtype`, with what it concerns.
    public init(_ type: String, _ subtype: String? = nil, bundleId: String, customer: String, transactionId: Int64?, originalTransactionId: Int64?, atMs: Int64) {
        self.type = type
        self.subtype = subtype
        self.bundleId = bundleId
        self.customer = customer
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.atMs = atMs
    }
}
