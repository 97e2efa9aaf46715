import Crypto
import Foundation

/// Makes App Store Server API bearer tokens the way Apple's clients do (reference §2), so tests
/// and the CLI can call our server exactly as Apple's Python and Swift libraries would.
public struct APITokenSigner: Sendable {
    /// How the claims are shaped.
    public struct Options: Sendable, Equatable {
        /// Whether to send `iat` (Swift's library does, Python's does not).
        public var includeIssuedAt: Bool
        /// Fractional NumericDates like JWTKit (`1795306522.6611803`), or integer seconds like PyJWT.
        public var fractionalDates: Bool
        /// `aud` as a one-element array instead of a plain string.
        public var audienceAsArray: Bool
        /// Token lifetime; Apple's clients use 5 minutes.
        public var lifetime: TimeInterval
        /// Header `alg`; only ES256 is valid, other values exist to test rejection.
        public var algorithm: String
        /// The audience; only `appstoreconnect-v1` is valid.
        public var audience: String

        /// Defaults are the valid shape (ES256, `appstoreconnect-v1`, 5 minutes); override one to
        /// make a token the verifier must reject.
        public init(
            includeIssuedAt: Bool, fractionalDates: Bool, audienceAsArray: Bool = false,
            lifetime: TimeInterval = 300, algorithm: String = "ES256", audience: String = APITokenVerifier.audience
        ) {
            self.includeIssuedAt = includeIssuedAt
            self.fractionalDates = fractionalDates
            self.audienceAsArray = audienceAsArray
            self.lifetime = lifetime
            self.algorithm = algorithm
            self.audience = audience
        }

        /// Apple's Python library 3.1.2: no `iat`, integer `exp`, string `aud`.
        public static let python = Options(includeIssuedAt: false, fractionalDates: false)
        /// Apple's Swift library 6.0 (JWTKit 5): fractional `iat` and `exp`, string `aud`.
        public static let swift = Options(includeIssuedAt: true, fractionalDates: true)
    }

    /// Sent as the header's `kid`, so the server can find the registered key.
    public var keyId: String
    /// Sent as the `iss` claim; must match the registered key's issuer.
    public var issuerId: String
    /// Sent as the `bid` claim; must match the registered key's bundle ID.
    public var bundleId: String
    private let privateKey: P256.Signing.PrivateKey

    /// - Parameter privateKeyP8: the `.p8` PKCS#8 PEM.
    public init(keyId: String, issuerId: String, bundleId: String, privateKeyP8: String) throws {
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.privateKey = try P256.Signing.PrivateKey(pemRepresentation: privateKeyP8)
    }

    /// A signer for a key `APIKeyFactory.generate` just made, as a test or the CLI holds it.
    public init(generated: GeneratedAPIKey) throws {
        try self.init(
            keyId: generated.key.keyId, issuerId: generated.key.issuerId,
            bundleId: generated.key.bundleId, privateKeyP8: generated.privateKeyP8)
    }

    /// A signed bearer token (without the `Bearer ` prefix).
    public func token(now: Date, options: Options = .python) -> String {
        let header = "{\"alg\":\(Self.quoted(options.algorithm)),\"kid\":\(Self.quoted(keyId)),\"typ\":\"JWT\"}"
        let nowSeconds = now.timeIntervalSince1970
        var claims = "{\"iss\":\(Self.quoted(issuerId)),\"bid\":\(Self.quoted(bundleId))"
        let audience = Self.quoted(options.audience)
        claims += ",\"aud\":" + (options.audienceAsArray ? "[\(audience)]" : audience)
        if options.includeIssuedAt {
            claims += ",\"iat\":" + Self.numericDate(nowSeconds, fractional: options.fractionalDates)
        }
        claims += ",\"exp\":" + Self.numericDate(nowSeconds + options.lifetime, fractional: options.fractionalDates) + "}"
        return sign(headerJSON: header, claimsJSON: claims)
    }

    /// Signs arbitrary header and claims JSON, for tests that need tokens no client would make.
    public func sign(headerJSON: String, claimsJSON: String) -> String {
        var input: [UInt8] = []
        Base64URL.append(Array(headerJSON.utf8), to: &input)
        input.append(UInt8(ascii: "."))
        Base64URL.append(Array(claimsJSON.utf8), to: &input)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try privateKey.signature(for: input)
        } catch {
            fatalError("P-256 signing failed: \(error)")  // only on allocation/RNG failure
        }
        input.append(UInt8(ascii: "."))
        Base64URL.append(signature.rawRepresentation, to: &input)
        return String(decoding: input, as: UTF8.self)
    }

    private static func numericDate(_ seconds: TimeInterval, fractional: Bool) -> String {
        fractional ? "\(seconds)" : "\(Int64(seconds.rounded(.down)))"
    }

    private static func quoted(_ string: String) -> String {
        let data = (try? JSONEncoder().encode(string)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
