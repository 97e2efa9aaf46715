/// A customer's refund request (`Transaction.beginRefundRequest`): Apple asks the developer for
/// consumption information (CONSUMPTION_REQUEST), then decides: REFUND or REFUND_DECLINED.
public struct RefundRequest: Codable, Sendable, Equatable {
    /// The kind under which requests are stored among the world's records.
    public static let recordKind = "refund_request"

    /// Waiting for a decision, granted (refunded) or declined.
    public enum State: String, Codable, Sendable {
        case pending, granted, declined
    }

    /// The request's ID, which the Transaction Manager decides it by.
    public var id: String
    /// The transaction the customer wants refunded.
    public var transactionId: String
    /// The app the transaction belongs to.
    public var bundleId: String
    /// The customer who asked.
    public var customer: String
    /// Apple's `consumptionRequestReason`.
    public var reason: String
    /// When the customer asked, on the world's clock.
    public var requestedDate: Int64
    /// Where the request stands.
    public var state: State
    /// When it was granted or declined; nil while pending.
    public var decidedDate: Int64?
}
