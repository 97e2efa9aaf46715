/// An App Store Server API key as the store registers it: who may call (issuer), for which app
/// (bundle), and the public half of the `.p8` key the caller signs its bearer tokens with.
public struct APIKey: Sendable, Equatable, Codable {
    /// App Store Connect style: 10 uppercase alphanumerics; the token header's `kid`.
    public var keyId: String
    /// Lowercase UUID; the token's `iss`.
    public var issuerId: String
    /// The token's `bid`.
    public var bundleId: String
    /// SPKI PEM ("-----BEGIN PUBLIC KEY-----") of the P-256 key.
    public var publicKeyPEM: String

    /// Registers an existing key; `APIKeyFactory.generate` makes a new one with its private half.
    public init(keyId: String, issuerId: String, bundleId: String, publicKeyPEM: String) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.publicKeyPEM = publicKeyPEM
    }
}
