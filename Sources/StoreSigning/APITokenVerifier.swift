import Crypto
import Foundation

/// Authenticates App Store Server API bearer tokens (reference §2) so that Apple's own clients
/// work unchanged: Python's (no `iat`, integer `exp`) and Swift's (fractional `iat`/`exp`).
public struct APITokenVerifier: Sendable {
    /// The audience App Store Connect tokens carry.
    public static let audience = "appstoreconnect-v1"

    /// Longest accepted `exp − (iat ?? now)`; Apple documents one hour.
    public var maxLifetime: TimeInterval
    /// Tolerated clock difference between caller and store.
    public var clockSkew: TimeInterval

    /// Defaults follow Apple: tokens live at most an hour, and a minute of clock skew is tolerated.
    public init(maxLifetime: TimeInterval = 3600, clockSkew: TimeInterval = 60) {
        self.maxLifetime = maxLifetime
        self.clockSkew = clockSkew
    }

    /// Verifies `bearerToken` (with or without the `Bearer ` prefix) at `now`.
    /// - Parameter key: looks up a registered key by `kid`.
    public func verify(_ bearerToken: String, now: Date, key lookup: (String) -> APIKey?) throws(APIAuthError) -> APIClaims {
        var token = Substring(bearerToken)
        if token.count > 7, token.prefix(7).lowercased() == "bearer " { token = token.dropFirst(7) }
        token = token.drop(while: { $0 == " " })
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let headerJSON = Base64URL.decode(segments[0]),
              let header = try? JSONDecoder().decode(Header.self, from: Data(headerJSON))
        else { throw .malformed }
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm }
        guard let kid = header.kid else { throw .unknownKey }
        guard let key = lookup(kid),
              let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)
        else { throw .unknownKey }

        guard let signatureBytes = Base64URL.decode(segments[2]), signatureBytes.count == 64,
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { throw .badSignature }
        let signingInput = token.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count)
        guard publicKey.isValidSignature(signature, for: Array(signingInput)) else { throw .badSignature }

        guard let claimsJSON = Base64URL.decode(segments[1]),
              let claims = try? JSONDecoder().decode(Claims.self, from: Data(claimsJSON))
        else { throw .malformed }
        guard claims.iss == key.issuerId else { throw .wrongIssuer }
        guard claims.bid == key.bundleId else { throw .wrongBundle }
        guard claims.aud?.contains(Self.audience) == true else { throw .wrongAudience }
        guard let exp = claims.exp else { throw .missingExpiry }
        let nowSeconds = now.timeIntervalSince1970
        guard exp > nowSeconds - clockSkew else { throw .expired }
        if let iat = claims.iat, iat > nowSeconds + clockSkew { throw .notYetValid }
        if let nbf = claims.nbf, nbf > nowSeconds + clockSkew { throw .notYetValid }
        guard exp - (claims.iat ?? nowSeconds) <= maxLifetime + clockSkew else { throw .lifetimeTooLong }

        return APIClaims(
            issuer: key.issuerId, bundleId: key.bundleId, keyId: kid,
            expiresAt: Date(timeIntervalSince1970: exp),
            issuedAt: claims.iat.map { Date(timeIntervalSince1970: $0) })
    }

    private struct Header: Decodable {
        let alg: String
        let kid: String?
    }

    /// NumericDates decode as Double, so integer (Python) and fractional (JWTKit) values both work.
    private struct Claims: Decodable {
        let iss: String?
        let bid: String?
        let aud: Audience?
        let exp: Double?
        let iat: Double?
        let nbf: Double?
    }

    /// RFC 7519 allows a single string or an array of strings.
    private enum Audience: Decodable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) {
                self = .one(value)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        func contains(_ audience: String) -> Bool {
            switch self {
            case .one(let value): return value == audience
            case .many(let values): return values.contains(audience)
            }
        }
    }
}
