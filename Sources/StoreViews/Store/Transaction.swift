import Foundation

/// The parts of a signed transaction a store page shows.
public struct Transaction: Sendable, Hashable {
    public enum OwnershipType: String, Sendable { case purchased = "PURCHASED", familyShared = "FAMILY_SHARED" }
    public let id: String
    public let originalID: String
    public let productID: String
    public let purchaseDate: Date
    public let expirationDate: Date?
    public let revocationDate: Date?
    public let isUpgraded: Bool
    public let ownershipType: OwnershipType

    public init(id: String, originalID: String, productID: String, purchaseDate: Date, expirationDate: Date? = nil,
                revocationDate: Date? = nil, isUpgraded: Bool = false, ownershipType: OwnershipType = .purchased) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.ownershipType = ownershipType
    }
}

/// StoreKit's `VerificationResult`: the server verified every JWS it read with the store's root.
public enum VerificationResult<SignedType: Sendable>: Sendable {
    case verified(SignedType)
    case unverified(SignedType, String)

    public var payloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

/// The app's own purchase record, for paid-to-free transitions (`originalAppVersion`).
public struct AppTransaction: Sendable, Hashable {
    public let originalAppVersion: String
    public let originalPurchaseDate: Date
    public init(originalAppVersion: String, originalPurchaseDate: Date) {
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
    }
}

extension Product.SubscriptionInfo {
    /// `Product.SubscriptionInfo.RenewalState` with StoreKit's raw values.
    public struct RenewalState: RawRepresentable, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let subscribed = RenewalState(rawValue: 1)
        public static let expired = RenewalState(rawValue: 2)
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        public static let inGracePeriod = RenewalState(rawValue: 4)
        public static let revoked = RenewalState(rawValue: 5)

        /// Whether the subscriber has access (subscribed or in grace period).
        public var isActive: Bool { self == .subscribed || self == .inGracePeriod }
    }

    public struct RenewalInfo: Sendable, Hashable {
        public let willAutoRenew: Bool
        public let autoRenewPreference: String?
        public let renewalDate: Date?
        public init(willAutoRenew: Bool, autoRenewPreference: String?, renewalDate: Date?) {
            self.willAutoRenew = willAutoRenew
            self.autoRenewPreference = autoRenewPreference
            self.renewalDate = renewalDate
        }
    }

    /// One subscription in a group and where it stands.
    public struct Status: Sendable, Hashable {
        public let state: RenewalState
        public let transaction: VerificationResult<Transaction>
        public let renewalInfo: VerificationResult<RenewalInfo>
        public init(state: RenewalState, transaction: VerificationResult<Transaction>, renewalInfo: VerificationResult<RenewalInfo>) {
            self.state = state
            self.transaction = transaction
            self.renewalInfo = renewalInfo
        }
    }
}
