import StoreModel

/// Something that happened to a purchase that App Store Server Notifications V2 reports:
/// Apple's `notificationType` and `subtype` strings, and what it concerns.
public struct LifecycleEvent: Codable, Sendable, Equatable {
    public var type: String
    public var subtype: String?
    public var bundleId: String
    public var customer: String
    public var transactionId: Int64?
    public var originalTransactionId: Int64?
    public var atMs: Int64

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
