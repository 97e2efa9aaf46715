/// Response bodies of the App Store Server API, field for field as Apple's clients decode them
/// (reference §1.4).

/// Get Transaction History.
public struct HistoryResponse: Codable, Sendable, Equatable {
    /// The token to ask for the next page with.
    public var revision: String
    /// Whether more transactions follow this page.
    public var hasMore: Bool
    /// The app's bundle ID.
    public var bundleId: String
    /// The app's Apple ID.
    public var appAppleId: Int64
    /// `Sandbox` or `Production`: the app's environment.
    public var environment: String
    /// Up to 20 signed transactions (JWS), in the requested order.
    public var signedTransactions: [String]
}

/// Get Transaction Info.
public struct TransactionInfoResponse: Codable, Sendable, Equatable {
    /// The transaction, signed (JWS).
    public var signedTransactionInfo: String
}

/// Get Refund History.
public struct RefundHistoryResponse: Codable, Sendable, Equatable {
    /// The customer's refunded or revoked transactions on this page, signed.
    public var signedTransactions: [String]
    /// The token to ask for the next page with.
    public var revision: String
    /// Whether more refunded transactions follow this page.
    public var hasMore: Bool
}

/// Look Up Order ID: `status` 0 = valid, 1 = invalid (then `signedTransactions` is empty).
public struct OrderLookupResponse: Codable, Sendable, Equatable {
    /// 0 when the order ID is valid, 1 when it is not.
    public var status: Int
    /// The order's signed transactions; empty when `status` is 1.
    public var signedTransactions: [String]
}

/// Get App Transaction Info.
public struct AppTransactionInfoResponse: Codable, Sendable, Equatable {
    /// The customer's app transaction, signed (JWS).
    public var signedAppTransactionInfo: String
}
