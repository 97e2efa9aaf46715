/// An App Store Server API error, as Apple answers it: `{"errorCode": N, "errorMessage": "…"}`
/// (reference §3.2). The server derives the HTTP status from the code's first three digits.
public struct ServerAPIError: Error, Sendable, Equatable {
    public var code: Int64
    public var message: String

    public init(code: Int64, message: String) {
        self.code = code
        self.message = message
    }

    // Messages follow Apple's documentation where it gives them.
    public static let generalBadRequest = ServerAPIError(code: 4_000_000, message: "Bad request.")
    public static let invalidRequestRevision = ServerAPIError(code: 4_000_005, message: "Invalid request revision.")
    public static let invalidTransactionId = ServerAPIError(code: 4_000_006, message: "Invalid transaction id.")
    public static let invalidOriginalTransactionId = ServerAPIError(code: 4_000_008, message: "Invalid original transaction id.")
    public static let startDateAfterEndDate = ServerAPIError(code: 4_000_013, message: "Invalid request. The end date precedes or equals the start date.")
    public static let invalidStartDate = ServerAPIError(code: 4_000_015, message: "Invalid request. The start date is invalid.")
    public static let invalidEndDate = ServerAPIError(code: 4_000_016, message: "Invalid request. The end date is invalid.")
    public static let invalidSort = ServerAPIError(code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
    public static let invalidProductType = ServerAPIError(code: 4_000_022, message: "Invalid request. The product type parameter is invalid.")
    public static let invalidProductId = ServerAPIError(code: 4_000_023, message: "Invalid request. The product id parameter is invalid.")
    public static let invalidSubscriptionGroupIdentifier = ServerAPIError(code: 4_000_024, message: "Invalid request. The subscription group identifier parameter is invalid.")
    /// `excludeRevoked` was replaced by `revoked` in API 1.8; Apple keeps its error code (deprecated).
    public static let invalidExcludeRevoked = ServerAPIError(code: 4_000_025, message: "Invalid request. The excludeRevoked parameter is deprecated; use revoked.")
    public static let invalidInAppOwnershipType = ServerAPIError(code: 4_000_026, message: "Invalid request. The in-app ownership type parameter is invalid.")
    public static let invalidRevoked = ServerAPIError(code: 4_000_030, message: "Invalid request. The revoked parameter is invalid.")
    public static let invalidAccountTenure = ServerAPIError(code: 4_000_032, message: "Invalid request. The account tenure field is invalid.")
    public static let invalidAppAccountToken = ServerAPIError(code: 4_000_033, message: "Invalid request. The app account token field must be empty or a valid UUID.")
    public static let invalidConsumptionStatus = ServerAPIError(code: 4_000_034, message: "Invalid request. The consumption status field is invalid.")
    public static let invalidCustomerConsented = ServerAPIError(code: 4_000_035, message: "Invalid request. The customer consented field is required and must indicate the customer consented.")
    public static let invalidDeliveryStatus = ServerAPIError(code: 4_000_036, message: "Invalid request. The delivery status field is invalid.")
    public static let invalidLifetimeDollarsPurchased = ServerAPIError(code: 4_000_037, message: "Invalid request. The lifetime dollars purchased field is invalid.")
    public static let invalidLifetimeDollarsRefunded = ServerAPIError(code: 4_000_038, message: "Invalid request. The lifetime dollars refunded field is invalid.")
    public static let invalidPlatform = ServerAPIError(code: 4_000_039, message: "Invalid request. The platform field is invalid.")
    public static let invalidPlayTime = ServerAPIError(code: 4_000_040, message: "Invalid request. The play time field is invalid.")
    public static let invalidSampleContentProvided = ServerAPIError(code: 4_000_041, message: "Invalid request. The sample content provided field is invalid.")
    public static let invalidUserStatus = ServerAPIError(code: 4_000_042, message: "Invalid request. The user status field is invalid.")
    public static let invalidRefundPreference = ServerAPIError(code: 4_000_044, message: "Invalid request. The refund preference field is invalid.")
    public static let invalidTransactionTypeNotSupported = ServerAPIError(code: 4_000_047, message: "Invalid request. The transaction id parameter must represent a consumable or auto-renewable subscription.")
    public static let appTransactionIdNotSupported = ServerAPIError(code: 4_000_048, message: "Invalid request. App transactions aren't supported by this endpoint.")
    public static let invalidAppAccountTokenUUID = ServerAPIError(code: 4_000_183, message: "Invalid request. The app account token field must be a valid UUID.")
    public static let familyTransactionNotSupported = ServerAPIError(code: 4_000_185, message: "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    public static let transactionIdIsNotOriginalTransactionId = ServerAPIError(code: 4_000_187, message: "Invalid request. The transaction ID provided is not an original transaction ID.")
    public static let consumptionPercentageAutoRenewableSubscription = ServerAPIError(code: 4_000_209, message: "Invalid request. The consumption percentage field is not supported for auto-renewable subscription transactions.")
    /// Apple's `ConsumptionPercentageOutOfRangeError`; its numeric code is not published where we
    /// could read it, so the general code is used with Apple's description.
    public static let consumptionPercentageOutOfRange = ServerAPIError(code: 4_000_000, message: "Invalid request. The consumption percentage is outside the valid range (0–100000).")
    /// Apple's `UndeliveredConsumptionPercentageNonZeroError`, likewise without a published code.
    public static let undeliveredConsumptionPercentageNonZero = ServerAPIError(code: 4_000_000, message: "Invalid request. The consumption percentage must be zero for the provided delivery status.")
    /// A request key Apple's current documentation does not list. Apple does not document what it
    /// answers; we refuse rather than ignore it, so a misspelt filter never widens a result.
    public static func unknownParameter(_ name: String) -> ServerAPIError {
        ServerAPIError(code: 4_000_000, message: "Invalid request. \(name.debugDescription) is not a parameter of this request.")
    }
    public static let appNotFound = ServerAPIError(code: 4_040_003, message: "App not found.")
    public static let transactionIdNotFound = ServerAPIError(code: 4_040_010, message: "Transaction id not found.")
    public static let appTransactionDoesNotExist = ServerAPIError(code: 4_040_019, message: "No AppTransaction exists for the customer.")
    public static let rateLimitExceeded = ServerAPIError(code: 4_290_000, message: "Rate limit exceeded.")
    public static let generalInternal = ServerAPIError(code: 5_000_000, message: "An unknown error occurred.")
}
