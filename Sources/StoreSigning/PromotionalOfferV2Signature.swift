import Crypto
import Foundation

/// Promotional offer signatures in the JWS form (WWDC25, `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`),
/// as Apple's `PromotionalOfferV2SignatureCreator` makes them: header `{alg: ES256, kid, typ: JWT}`,
/// claims `bid`, `iss`, `aud` = "promotional-offer", `iat` (seconds), `nonce` (UUID string),
/// `productId`, `offerIdentifier` and an optional `transactionId`; signed with the In-App Purchase key.
///
/// This type checks the signature and reads the claims; which claims a purchase accepts is the
/// engine's business (`PromotionalOfferRules`).
public enum PromotionalOfferV2Signature {
    /// The `aud` Apple's `PromotionalOfferV2SignatureCreator` writes, which the engine checks for.
    public static let audience = "promotional-offer"

    /// The claims as sent, each optional: judging them is the engine's job (`PromotionalOfferRules`), not this type's.
    public struct Claims: Sendable, Equatable {
        /// `iss`: the issuer ID of the developer's In-App Purchase key.
        public var issuer: String?
        /// `bid`: the app the offer was signed for.
        public var bundleId: String?
        /// `aud` as a list (RFC 7519 allows a string or an array); empty when absent.
        public var audiences: [String]
        /// `iat` in seconds (PyJWT writes integers, JWTKit fractions).
        public var issuedAt: Double?
        /// `nonce`: the UUID Apple's creators put in every signature (lowercase when `sign` makes it).
        public var nonce: String?
        /// `productId`: the product the offer applies to.
        public var productId: String?
        /// `offerIdentifier`: the promotional offer's ID from App Store Connect.
        public var offerIdentifier: String?
        /// `transactionId`: optional in a promotional offer, present in an introductory-offer eligibility JWS.
        public var transactionId: String?
        /// `allowIntroductoryOffer`, in an introductory-offer-eligibility JWS (same form, another audience).
        public var allowIntroductoryOffer: Bool? = nil
    }

    /// Why `verify` refused the JWS; which claims are acceptable is checked later, by the engine.
    public enum Failure: Error, Sendable, Equatable {
        case malformed
        case unsupportedAlgorithm
        case badSignature
    }

    /// The `kid` of the header, to find the key to verify with; nil when the JWS is not readable.
    public static func keyId(of compactJWS: String) -> String? {
        let segments = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let bytes = Base64URL.decode(segments[0]),
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes))
        else { return nil }
        return header.kid
    }

    /// Checks the ES256 signature with the key's SPKI PEM and returns the claims.
    public static func verify(_ compactJWS: String, publicKeyPEM: String) throws(Failure) -> Claims {
        let segments = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let headerBytes = Base64URL.decode(segments[0]),
              let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes))
        else { throw .malformed }
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm }
        guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: publicKeyPEM),
              let signatureBytes = Base64URL.decode(segments[2]), signatureBytes.count == 64,
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { throw .badSignature }
        let signingInput = Array(compactJWS.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        guard publicKey.isValidSignature(signature, for: signingInput) else { throw .badSignature }
        guard let claimBytes = Base64URL.decode(segments[1]),
              let raw = try? JSONDecoder().decode(RawClaims.self, from: Data(claimBytes))
        else { throw .malformed }
        return Claims(
            issuer: raw.iss, bundleId: raw.bid, audiences: raw.aud?.values ?? [], issuedAt: raw.iat,
            nonce: raw.nonce, productId: raw.productId, offerIdentifier: raw.offerIdentifier,
            transactionId: raw.transactionId, allowIntroductoryOffer: raw.allowIntroductoryOffer)
    }

    /// Signs like Apple's `PromotionalOfferV2SignatureCreator.createSignature` (for clients and tests).
    public static func sign(
        privateKeyP8: String, keyId: String, issuerId: String, bundleId: String, productId: String,
        offerIdentifier: String, transactionId: String? = nil, nonce: UUID = UUID(), issuedAt: Date
    ) throws -> String {
        var claims: [String: JSONScalar] = [
            "bid": .string(bundleId), "iss": .string(issuerId), "aud": .string(audience),
            "iat": .int(Int64(issuedAt.timeIntervalSince1970.rounded(.down))), "nonce": .string(nonce.uuidString.lowercased()),
            "productId": .string(productId), "offerIdentifier": .string(offerIdentifier),
        ]
        if let transactionId { claims["transactionId"] = .string(transactionId) }
        return try signJWT(claims: claims, privateKeyP8: privateKeyP8, keyId: keyId)
    }

    /// An ES256 JWT with the `kid` header, claims in sorted key order, as Apple's creators make them.
    static func signJWT(claims: [String: JSONScalar], privateKeyP8: String, keyId: String) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyP8)
        let header = try JSONEncoder().encode(["alg": "ES256", "kid": keyId, "typ": "JWT"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var input: [UInt8] = []
        Base64URL.append(Array(header), to: &input)
        input.append(UInt8(ascii: "."))
        Base64URL.append(Array(try encoder.encode(claims)), to: &input)
        let signature = try key.signature(for: input)
        input.append(UInt8(ascii: "."))
        Base64URL.append(signature.rawRepresentation, to: &input)
        return String(decoding: input, as: UTF8.self)
    }

    private struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    private struct RawClaims: Decodable {
        var iss: String?
        var bid: String?
        var aud: Audience?
        var iat: Double?
        var nonce: String?
        var productId: String?
        var offerIdentifier: String?
        var transactionId: String?
        var allowIntroductoryOffer: Bool?
    }

    /// RFC 7519 allows one string or an array.
    private enum Audience: Decodable {
        case one(String), many([String])
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) { self = .one(value) } else { self = .many(try container.decode([String].self)) }
        }
        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    enum JSONScalar: Encodable {
        case string(String), int(Int64), bool(Bool)
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            }
        }
    }
}
