/// `JWSAppTransactionDecodedPayload` (reference §4.4). `receiptType` doubles as the environment,
/// and `receiptCreationDate` is the verifier's validation time.
public struct AppTransactionPayload: Codable, Sendable, Equatable {
    /// Mirrors the App Store's `receiptType`: the environment that signed the app transaction.
    public var receiptType: StoreEnvironment
    /// Mirrors `appAppleId`: the number the App Store identifies the app by; nil when the app has none.
    public var appAppleId: Int64?
    /// Mirrors `bundleId`: the bundle identifier the app transaction applies to.
    public var bundleId: String
    /// Mirrors `applicationVersion`: the app version the app transaction applies to.
    public var applicationVersion: String
    /// Mirrors `versionExternalIdentifier`: the App Store's number for this app version; nil when absent.
    public var versionExternalIdentifier: Int64?
    /// Mirrors `receiptCreationDate`: when the App Store signed the app transaction, in ms since 1970.
    public var receiptCreationDate: Int64
    /// When the app transaction was requested, in ms since 1970; the store writes the signing time.
    public var requestDate: Int64?
    /// Mirrors `originalPurchaseDate`: when the customer first got the app, in ms since 1970.
    public var originalPurchaseDate: Int64
    /// Mirrors `originalApplicationVersion`: the app version the customer first got, for paid-to-free checks.
    public var originalApplicationVersion: String
    /// Mirrors `deviceVerification`: base64 SHA-384 that lets the app check the app transaction belongs to this device.
    public var deviceVerification: String?
    /// Mirrors `deviceVerificationNonce`: the UUID hashed into `deviceVerification`.
    public var deviceVerificationNonce: String?
    /// Mirrors `preorderDate`: when the customer pre-ordered the app, in ms since 1970; nil unless pre-ordered.
    public var preorderDate: Int64?
    /// Mirrors `appTransactionId`: the unique identifier of the app download transaction.
    public var appTransactionId: String
    /// Mirrors `originalPlatform`: the platform the customer first got the app on.
    public var originalPlatform: PurchasePlatform
    /// When the store signed the payload, in ms since 1970; nil in payloads without it.
    public var signedDate: Int64?

    /// A payload as the store builds it before signing; optional fields default to absent.
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
