/// Response bodies of the App Store Server API, field for field as Apple's clients decode them
/// (reference §1.4).

/// Get Transaction History.
public struct HistoryResponse: Codable, Sendable, Equatable {
    public var revision: String
    public var hasMore: Bool
    public var bundleId: String
    public var appAppleId: Int64
    public var environment: String
    public var signedTransactions: [String]
}

/// Get Transaction Info.
public struct TransactionInfoResponse: Codable, Sendable, Equatable {
    public var signedTransactionInfo: String
}

/// Get Refund History.
public struct RefundHistoryResponse: Codable, Sendable, Equatable {
    public var signedTransactions: [String]
    public var revision: String
    public var hasMore: Bool
}

/// Look Up Order ID: `status` 0 = valid, 1 = invalid (then `signedTransactions` is empty).
public struct OrderLookupResponse: Codable, Sendable, Equatable {
    public var status: Int
    public var signedTransactions: [String]
}

/// Get App Transaction Info.
public struct AppTransactionInfoResponse: Codable, Sendable, Equatable {
    public var signedAppTransactionInfo: String
}
