import StoreStorage

/// An App Store event of a world (a purchase, a renewal, a refund, …): the seed of a server
/// notification, in the order of the store's change sequence. The engine's own type.
public struct StoreEvent: Sendable, Equatable {
    /// The store-wide change number: the feed's order and resume position.
    public var seq: Int64
    /// The world it happened in.
    public var world: String
    /// The app it concerns.
    public var bundleId: String
    /// The customer it concerns; empty for app-wide events (`TEST`, a mass-extension summary).
    public var customer: String
    /// The notification type it is (`SUBSCRIBED`, `DID_RENEW`, …) and its subtype.
    public var type: String
    /// The notification subtype (`INITIAL_BUY`, `AUTO_RENEW_DISABLED`, …), if the type has one.
    public var subtype: String?
    /// The transaction it is about, if any.
    public var transactionId: Int64?
    /// The original transaction ID of the subscription or purchase, if any.
    public var originalId: Int64?
    /// World time of the event.
    public var atMs: Int64
    /// Extra facts of some events, as JSON.
    public var data: String?

    /// An event with the given fields.
    public init(seq: Int64, world: String, bundleId: String, customer: String, type: String, subtype: String?,
                transactionId: Int64?, originalId: Int64?, atMs: Int64, data: String? = nil) {
        self.seq = seq
        self.world = world
        self.bundleId = bundleId
        self.customer = customer
        self.type = type
        self.subtype = subtype
        self.transactionId = transactionId
        self.originalId = originalId
        self.atMs = atMs
        self.data = data
    }

    init(_ record: EventRecord) {
        self.init(seq: record.seq, world: record.world, bundleId: record.bundleId, customer: record.customer, type: record.type,
                  subtype: record.subtype, transactionId: record.transactionId, originalId: record.originalId,
                  atMs: record.atMs, data: record.data)
    }
}
