import Foundation

/// StoreKit's `AppTransaction`: the customer's purchase of the app itself, for paid-to-free
/// checks (`originalAppVersion`). The client library adds `shared` and `refresh()`.
public struct AppTransaction: Hashable, Sendable, JWSRepresentable {
    /// Mirrors StoreKit's `AppTransaction.appID`: the number the App Store identifies the app by
    /// (payload `appAppleId`); nil when the payload has none.
    public let appID: UInt64?
    /// Mirrors StoreKit's `AppTransaction.appVersionID`: the App Store's number for this app version
    /// (payload `versionExternalIdentifier`); nil when the payload has none.
    public let appVersionID: UInt64?
    /// Mirrors StoreKit's `AppTransaction.appVersion`: the app version the app transaction applies to.
    public let appVersion: String
    /// Mirrors StoreKit's `AppTransaction.bundleID`: the bundle ID the app transaction applies to.
    public let bundleID: String
    /// Mirrors StoreKit's `AppTransaction.environment`: which App Store signed it (payload `receiptType`).
    public let environment: AppStore.Environment
    /// Mirrors StoreKit's `AppTransaction.originalAppVersion`: the version the customer first bought,
    /// which is what a paid-to-free check compares against.
    public let originalAppVersion: String
    /// Mirrors StoreKit's `AppTransaction.originalPurchaseDate`: when the customer first got the app.
    public let originalPurchaseDate: Date
    /// Mirrors StoreKit's `AppTransaction.preorderDate`: when the customer pre-ordered the app; nil
    /// unless it was a pre-order.
    public let preorderDate: Date?
    /// Mirrors StoreKit's `AppTransaction.appTransactionID`: the unique identifier of the app download
    /// transaction, which in-app transactions and renewal info repeat.
    public let appTransactionID: String
    /// Mirrors StoreKit's `AppTransaction.originalPlatform`: the platform the customer first got the app on.
    public let originalPlatform: AppStore.Platform
    /// Mirrors StoreKit's `AppTransaction.signedDate`: when the store signed it (the payload's
    /// `signedDate`, or `receiptCreationDate` when that is missing).
    public let signedDate: Date
    /// Mirrors StoreKit's `AppTransaction.jsonRepresentation`: the signed payload, as JSON.
    public let jsonRepresentation: Data
    /// The compact JWS this app transaction was decoded from, for a server to verify again.
    public let jwsRepresentation: String
}
