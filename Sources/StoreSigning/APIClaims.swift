import Foundation

/// What a verified App Store Server API bearer token says, for logging and per-app routing.
public struct APIClaims: Sendable, Equatable {
    public var issuer: String
    public var bundleId: String
    public var keyId: String
    public var expiresAt: Date
    /// Absent in tokens from Apple's Python library.
    public var issuedAt: Date?

    public init(issuer: String, bundleId: String, keyId: String, expiresAt: Date, issuedAt: Date?) {
        self.issuer = issuer
        self.bundleId = bundleId
        self.keyId = keyId
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
    }
}
