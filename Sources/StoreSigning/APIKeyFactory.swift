import Crypto
import Foundation

/// A freshly made API key with its private half, which the store hands out once (like the
/// `.p8` download in App Store Connect) and never stores.
public struct GeneratedAPIKey: Sendable {
    /// The public part, which the store registers and keeps.
    public var key: APIKey
    /// PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), the `.p8` format Apple's libraries load.
    public var privateKeyP8: String

    /// Pairs a key with its `.p8` text; `APIKeyFactory.generate` is the usual way to get one.
    public init(key: APIKey, privateKeyP8: String) {
        self.key = key
        self.privateKeyP8 = privateKeyP8
    }
}

/// Makes API keys shaped like App Store Connect's so client configuration looks familiar.
public enum APIKeyFactory {
    private static let keyIdAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    /// A new P-256 key with a random 10-character key ID, as App Store Connect issues them;
    /// a random lowercase UUID issuer unless `issuerId` is given, so several keys can share one issuer as a team's do.
    public static func generate(bundleId: String, issuerId: String? = nil) -> GeneratedAPIKey {
        let privateKey = P256.Signing.PrivateKey()
        var generator = SystemRandomNumberGenerator()
        let keyId = String((0..<10).map { _ in keyIdAlphabet[Int.random(in: 0..<keyIdAlphabet.count, using: &generator)] })
        let key = APIKey(
            keyId: keyId,
            issuerId: issuerId ?? UUID().uuidString.lowercased(),
            bundleId: bundleId,
            publicKeyPEM: privateKey.publicKey.pemRepresentation)
        return GeneratedAPIKey(key: key, privateKeyP8: privateKey.pemRepresentation)
    }
}
