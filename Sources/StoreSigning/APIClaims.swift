import Foundation

/// What a verified App Store Server API bearer token says, for logging and per-app routing.
public struct APIClaims: Sendable, Equatable {
    /// The registered key's issuer ID, which the token's `iss` had to equal.
    public var issuer: String
    /// The registered key's bundle ID (the token's `bid`): the app the call is routed to.
    public var bundleId: String
    /// The header's `kid`, naming the registered key that verified the signature.
    public var keyId: String
    /// The token's `exp`, fractional seconds kept (Swift's library sends them).
    public var expiresAt: Date
    /// Absent in tokens from Apple's Python library.
    public var issuedAt: Date?

    /// Made by `APITokenVerifier.verify` once every check has passed.
    public init(issuer: String, bundleId: String, keyId: String, expiresAt: Date, issuedAt: Date?) {
        self.issuer = issuer
        self.bundleId = bundleId
        self.keyId = keyId
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
    }
}
