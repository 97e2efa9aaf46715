/// A customer's refund request (`Transaction.beginRefundRequest`): Apple asks the developer for
/// consumption information (CONSUMPTION_REQUEST), then decides: REFUND or REFUND_DECLINED.
public struct RefundRequest: Codable, Sendable, Equatable {
    public static let recordKind = "refund_request"

    public enum State: String, Codable, Sendable {
        case pending, granted, declined
    }

    public var id: String
    public var transactionId: String
    public var bundleId: String
    public var customer: String
    /// Apple's `consumptionRequestReason`.
    public var reason: String
    public var requestedDate: Int64
    public var state: State
    public var decidedDate: Int64?
}
