import StoreStorage

/// Consumption information a developer sent for a transaction (Send Consumption Information, v1
/// or v2), as received: the engine's own type for what it keeps.
public struct ConsumptionInformation: Sendable, Equatable {
    /// The world the transaction is in.
    public var world: String
    /// The transaction the information is about.
    public var transactionId: Int64
    /// 1 or 2: which Send Consumption Information endpoint it came through.
    public var version: Int
    /// The request body as JSON (normalized).
    public var body: String
    /// When it arrived, on the world's clock; a later send replaces it.
    public var receivedMs: Int64

    init(_ record: ConsumptionInfoRecord) {
        world = record.world
        transactionId = record.transactionId
        version = record.version
        body = record.body
        receivedMs = record.receivedMs
    }
}
