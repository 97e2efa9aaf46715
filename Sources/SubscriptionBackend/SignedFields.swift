import Foundation

/// The fields of Apple's signed payloads the backend uses, decoded leniently: every field is
/// optional and enums stay raw, so a field Apple adds tomorrow never makes real data unreadable.
public struct TransactionFields: Codable, Sendable, Equatable {
    public var transactionId: String?
    public var originalTransactionId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Int64?
    public var originalPurchaseDate: Int64?
    public var expiresDate: Int64?
    public var type: String?
    public var appAccountToken: String?
    public var inAppOwnershipType: String?
    public var signedDate: Int64?
    public var revocationDate: Int64?
    public var revocationReason: Int?
    public var revocationType: String?
    public var isUpgraded: Bool?
    public var offerType: Int?
    public var offerDiscountType: String?
    public var environment: String?
    public var transactionReason: String?
    public var currency: String?
    public var price: Int64?
    public var storefront: String?
}

public struct RenewalFields: Codable, Sendable, Equatable {
    public var originalTransactionId: String?
    public var productId: String?
    public var autoRenewProductId: String?
    public var autoRenewStatus: Int?
    public var expirationIntent: Int?
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Int64?
    public var signedDate: Int64?
    public var environment: String?
    public var renewalDate: Int64?
    public var offerType: Int?
}

struct NotificationFields: Decodable {
    struct AppFields: Decodable {
        var bundleId: String?
        var appAppleId: Int64?
        var environment: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }
    struct TokenFields: Decodable {
        var bundleId: String?
        var appAppleId: Int64?
        var externalPurchaseId: String?
    }
    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var signedDate: Int64?
    var data: AppFields?
    var summary: AppFields?
    var externalPurchaseToken: TokenFields?
    var appData: AppFields?
}

/// A verified transaction with the JWS it came in.
public struct SignedTransaction: Sendable, Equatable {
    public var jws: String
    public var fields: TransactionFields
}

public struct SignedRenewalInfo: Sendable, Equatable {
    public var jws: String
    public var fields: RenewalFields
}

/// A notification after every check, with its nested data verified too.
public struct VerifiedNotification: Sendable, Equatable {
    public var uuid: String
    public var type: String
    public var subtype: String?
    public var signedDate: Int64
    public var environment: String
    public var transaction: SignedTransaction?
    public var renewal: SignedRenewalInfo?
}
