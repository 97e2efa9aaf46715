/// An App Store Server API error, as Apple answers it: `{"errorCode": N, "errorMessage": "…"}`
/// (reference §3.2). The server derives the HTTP status from the code's first three digits.
public struct ServerAPIError: Error, Sendable, Equatable {
    /// Apple's `errorCode`: seven digits whose first three are the HTTP status.
    public var code: Int64
    /// Apple's `errorMessage`, in Apple's words where it documents them.
    public var message: String
    /// For a 429: when requests are accepted again, UNIX time in milliseconds, which Apple sends
    /// as the `Retry-After` header ("Identifying rate limits"). Not part of equality.
    public var retryAtMs: Int64? = nil

    /// Same code and message (the retry time is advice, not identity).
    public static func == (lhs: ServerAPIError, rhs: ServerAPIError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// An error with any code, for the ones no named constant below covers.
    public init(code: Int64, message: String) {
        self.code = code
        self.message = message
    }

    // Messages follow Apple's documentation where it gives them.
    /// Apple's `GeneralBadRequestError`: the request is malformed or fails a check no more specific error covers.
    public static let generalBadRequest = ServerAPIError(code: 4_000_000, message: "Bad request.")
    /// Apple's `InvalidRequestRevisionError`: the `revision` paging token is malformed or not one this store issued.
    public static let invalidRequestRevision = ServerAPIError(code: 4_000_005, message: "Invalid request revision.")
    /// Apple's `InvalidTransactionIdError`: the transaction ID in the path is not a valid transaction ID.
    public static let invalidTransactionId = ServerAPIError(code: 4_000_006, message: "Invalid transaction id.")
    /// Apple's `InvalidOriginalTransactionIdError`: the original transaction ID is not a valid one.
    public static let invalidOriginalTransactionId = ServerAPIError(code: 4_000_008, message: "Invalid original transaction id.")
    /// Apple's `StartDateAfterEndDateError`: the end date is not after the start date.
    public static let startDateAfterEndDate = ServerAPIError(code: 4_000_013, message: "Invalid request. The end date precedes or equals the start date.")
    /// Apple's `InvalidStartDateError`: a `startDate` that is not a valid date.
    public static let invalidStartDate = ServerAPIError(code: 4_000_015, message: "Invalid request. The start date is invalid.")
    /// Apple's `InvalidEndDateError`: an `endDate` that is not a valid date.
    public static let invalidEndDate = ServerAPIError(code: 4_000_016, message: "Invalid request. The end date is invalid.")
    /// Apple's `InvalidSortError`: `sort` is neither `ASCENDING` nor `DESCENDING`.
    public static let invalidSort = ServerAPIError(code: 4_000_021, message: "Invalid request. The sort parameter is invalid.")
    /// Apple's `InvalidProductTypeError`: a `productType` filter value is not one of Apple's product types.
    public static let invalidProductType = ServerAPIError(code: 4_000_022, message: "Invalid request. The product type parameter is invalid.")
    /// Apple's `InvalidProductIdError`: a `productId` that is empty or longer than 255 characters, or not
    /// an auto-renewable subscription where one is needed.
    public static let invalidProductId = ServerAPIError(code: 4_000_023, message: "Invalid request. The product id parameter is invalid.")
    /// Apple's `InvalidSubscriptionGroupIdentifierError`: a `subscriptionGroupIdentifier` filter that is empty or too long.
    public static let invalidSubscriptionGroupIdentifier = ServerAPIError(code: 4_000_024, message: "Invalid request. The subscription group identifier parameter is invalid.")
    /// `excludeRevoked` was replaced by `revoked` in API 1.8; Apple keeps its error code (deprecated).
    public static let invalidExcludeRevoked = ServerAPIError(code: 4_000_025, message: "Invalid request. The excludeRevoked parameter is deprecated; use revoked.")
    /// Apple's `InvalidInAppOwnershipTypeError`: `inAppOwnershipType` is neither `PURCHASED` nor `FAMILY_SHARED`.
    public static let invalidInAppOwnershipType = ServerAPIError(code: 4_000_026, message: "Invalid request. The in-app ownership type parameter is invalid.")
    /// Apple's `InvalidRevokedError`: `revoked` is not `true` or `false`.
    public static let invalidRevoked = ServerAPIError(code: 4_000_030, message: "Invalid request. The revoked parameter is invalid.")
    /// Apple's `InvalidAccountTenureError`: a consumption request's `accountTenure` is missing or out of range.
    public static let invalidAccountTenure = ServerAPIError(code: 4_000_032, message: "Invalid request. The account tenure field is invalid.")
    /// Apple's `InvalidAppAccountTokenError`: an `appAccountToken` that is neither empty nor a UUID.
    public static let invalidAppAccountToken = ServerAPIError(code: 4_000_033, message: "Invalid request. The app account token field must be empty or a valid UUID.")
    /// Apple's `InvalidConsumptionStatusError`: a v1 consumption request's `consumptionStatus` is missing or out of range.
    public static let invalidConsumptionStatus = ServerAPIError(code: 4_000_034, message: "Invalid request. The consumption status field is invalid.")
    /// Apple's `InvalidCustomerConsentedError`: a consumption request without `customerConsented: true`.
    public static let invalidCustomerConsented = ServerAPIError(code: 4_000_035, message: "Invalid request. The customer consented field is required and must indicate the customer consented.")
    /// Apple's `InvalidDeliveryStatusError`: a consumption request's `deliveryStatus` is missing or not one Apple lists.
    public static let invalidDeliveryStatus = ServerAPIError(code: 4_000_036, message: "Invalid request. The delivery status field is invalid.")
    /// Apple's `InvalidLifetimeDollarsPurchasedError`: a v1 consumption request's `lifetimeDollarsPurchased` is missing or out of range.
    public static let invalidLifetimeDollarsPurchased = ServerAPIError(code: 4_000_037, message: "Invalid request. The lifetime dollars purchased field is invalid.")
    /// Apple's `InvalidLifetimeDollarsRefundedError`: a v1 consumption request's `lifetimeDollarsRefunded` is missing or out of range.
    public static let invalidLifetimeDollarsRefunded = ServerAPIError(code: 4_000_038, message: "Invalid request. The lifetime dollars refunded field is invalid.")
    /// Apple's `InvalidPlatformError`: a v1 consumption request's `platform` is missing or out of range.
    public static let invalidPlatform = ServerAPIError(code: 4_000_039, message: "Invalid request. The platform field is invalid.")
    /// Apple's `InvalidPlayTimeError`: a v1 consumption request's `playTime` is missing or out of range.
    public static let invalidPlayTime = ServerAPIError(code: 4_000_040, message: "Invalid request. The play time field is invalid.")
    /// Apple's `InvalidSampleContentProvidedError`: a consumption request's `sampleContentProvided` is missing or not a Boolean.
    public static let invalidSampleContentProvided = ServerAPIError(code: 4_000_041, message: "Invalid request. The sample content provided field is invalid.")
    /// Apple's `InvalidUserStatusError`: a v1 consumption request's `userStatus` is missing or out of range.
    public static let invalidUserStatus = ServerAPIError(code: 4_000_042, message: "Invalid request. The user status field is invalid.")
    /// Apple's `InvalidRefundPreferenceError`: a consumption request's `refundPreference` is not one Apple lists.
    public static let invalidRefundPreference = ServerAPIError(code: 4_000_044, message: "Invalid request. The refund preference field is invalid.")
    /// Apple's `InvalidTransactionTypeNotSupportedError`: the v1 consumption endpoint got a transaction that is neither
    /// a consumable nor an auto-renewable subscription.
    public static let invalidTransactionTypeNotSupported = ServerAPIError(code: 4_000_047, message: "Invalid request. The transaction id parameter must represent a consumable or auto-renewable subscription.")
    /// Apple's `AppTransactionIdNotSupportedError`: the endpoint was given an app transaction ID, which it does not take.
    public static let appTransactionIdNotSupported = ServerAPIError(code: 4_000_048, message: "Invalid request. App transactions aren't supported by this endpoint.")
    /// Apple's `InvalidAppAccountTokenUUIDError`: an `appAccountToken` that must be a UUID is not one.
    public static let invalidAppAccountTokenUUID = ServerAPIError(code: 4_000_183, message: "Invalid request. The app account token field must be a valid UUID.")
    /// Apple's `FamilyTransactionNotSupportedError`: the transaction came through Family Sharing, which the endpoint
    /// does not take.
    public static let familyTransactionNotSupported = ServerAPIError(code: 4_000_185, message: "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    /// Apple's `TransactionIdIsNotOriginalTransactionIdError`: the endpoint needs an original transaction ID and got
    /// a later one.
    public static let transactionIdIsNotOriginalTransactionId = ServerAPIError(code: 4_000_187, message: "Invalid request. The transaction ID provided is not an original transaction ID.")
    /// Apple's `ConsumptionPercentageAutoRenewableSubscriptionError`: a `consumptionPercentage` sent for an
    /// auto-renewable subscription.
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
    /// Apple's `AppNotFoundError`: the store serves no app with the bundle ID of the caller's key.
    public static let appNotFound = ServerAPIError(code: 4_040_003, message: "App not found.")
    /// Apple's `TransactionIdNotFoundError`: no transaction of the caller's app, in its world, has that ID.
    public static let transactionIdNotFound = ServerAPIError(code: 4_040_010, message: "Transaction id not found.")
    /// Apple's `AppTransactionDoesNotExistError`: the customer has no app transaction for the app.
    public static let appTransactionDoesNotExist = ServerAPIError(code: 4_040_019, message: "No AppTransaction exists for the customer.")
    /// Apple's `RateLimitExceededError`: the caller's key made more requests than its rate limit allows.
    public static let rateLimitExceeded = ServerAPIError(code: 4_290_000, message: "Rate limit exceeded.")
    /// Apple's `GeneralInternalError`: the store failed in a way no other error describes.
    public static let generalInternal = ServerAPIError(code: 5_000_000, message: "An unknown error occurred.")
}
