/// `JWSAppTransactionDecodedPayload` (reference §4.4). `receiptType` doubles as the environment,
/// and `receiptCreationDate` is the verifier's validation time.
public struct AppTransactionPayload: Codable, Sendable, Equatable {
    public var receiptType: StoreEnvironment
    public var appAppleId: Int64?
    public var bundleId: String
    public var applicationVersion: String
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: Int64
    public var requestDate: Int64?
    public var originalPurchaseDate: Int64
    public var originalApplicationVersion: String
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?
    public var preorderDate: Int64?
    public var appTransactionId: String
    public var originalPlatform: PurchasePlatform
    public var signedDate: Int64?

    public init(
        receiptType: StoreEnvironment, appAppleId: Int64?, bundleId: String, applicationVersion: String,
        versionExternalIdentifier: Int64? = nil, receiptCreationDate: Int64, requestDate: Int64? = nil,
        originalPurchaseDate: Int64, originalApplicationVersion: String, deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil, preorderDate: Int64? = nil, appTransactionId: String,
        originalPlatform: PurchasePlatform = .iOS, signedDate: Int64? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.requestDate = requestDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate
    }
}
