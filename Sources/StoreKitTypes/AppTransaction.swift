import Foundation

/// StoreKit's `AppTransaction`: the customer's purchase of the app itself, for paid-to-free
/// checks (`originalAppVersion`). The client library adds `shared` and `refresh()`.
public struct AppTransaction: Hashable, Sendable, JWSRepresentable {
    public let appID: UInt64?
    public let appVersionID: UInt64?
    public let appVersion: String
    public let bundleID: String
    public let environment: AppStore.Environment
    public let originalAppVersion: String
    public let originalPurchaseDate: Date
    public let preorderDate: Date?
    public let appTransactionID: String
    public let originalPlatform: AppStore.Platform
    public let signedDate: Date
    public let jsonRepresentation: Data
    public let jwsRepresentation: String
}
