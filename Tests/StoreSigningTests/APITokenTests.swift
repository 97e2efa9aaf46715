import Crypto
import Foundation
import Testing
@testable import StoreSigning

/// Bearer tokens from both of Apple's clients must pass; every broken rule must fail (reference §2).
struct APITokenTests {
    let generated = APIKeyFactory.generate(bundleId: "com.example.app")
    let now = Date(timeIntervalSince1970: 1_795_306_222.6611803)
    let verifier = APITokenVerifier()

    private func lookup(_ kid: String) -> APIKey? { kid == generated.key.keyId ? generated.key : nil }
    private func signer() throws -> APITokenSigner { try APITokenSigner(generated: generated) }
    private func verify(_ token: String, at date: Date? = nil) throws(APIAuthError) -> APIClaims {
        try verifier.verify(token, now: date ?? now, key: lookup)
    }
    private func claims(_ json: String, header: String? = nil) throws -> String {
        try signer().sign(headerJSON: header ?? #"{"alg":"ES256","kid":"\#(generated.key.keyId)","typ":"JWT"}"#, claimsJSON: json)
    }
    private var base: String { #""iss":"\#(generated.key.issuerId)","bid":"com.example.app","aud":"appstoreconnect-v1""# }

    @Test func generatedKeysLookLikeAppStoreConnect() throws {
        let key = generated.key
        #expect(key.keyId.count == 10)
        #expect(key.keyId.allSatisfy { ($0.isUppercase || $0.isNumber) && $0.isASCII })
        #expect(UUID(uuidString: key.issuerId) != nil)
        #expect(key.issuerId == key.issuerId.lowercased())
        #expect(generated.privateKeyP8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(key.publicKeyPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let privateKey = try P256.Signing.PrivateKey(pemRepresentation: generated.privateKeyP8)
        #expect(privateKey.publicKey.pemRepresentation == key.publicKeyPEM)
        #expect(APIKeyFactory.generate(bundleId: "b", issuerId: "fixed").key.issuerId == "fixed")
        #expect(APIKeyFactory.generate(bundleId: "b").key.keyId != key.keyId)
    }

    @Test func acceptsPythonStyleTokens() throws {
        let token = try signer().token(now: now, options: .python)
        let payload = String(decoding: try #require(JWSInspector.payload(of: token)), as: UTF8.self)
        #expect(!payload.contains("iat"))
        #expect(payload.contains("\"exp\":1795306522}") || payload.contains("\"exp\":1795306522,"))
        let header = try #require(JWSInspector.header(of: token))
        #expect(header["kid"] as? String == generated.key.keyId)
        #expect(header["typ"] as? String == "JWT")

        let decoded = try verify(token)
        #expect(decoded == APIClaims(
            issuer: generated.key.issuerId, bundleId: "com.example.app", keyId: generated.key.keyId,
            expiresAt: Date(timeIntervalSince1970: 1_795_306_522), issuedAt: nil))
        #expect(try verifier.verify("Bearer " + token, now: now, key: lookup) == decoded)
    }

    @Test func acceptsSwiftStyleTokens() throws {
        let token = try signer().token(now: now, options: .swift)
        let payload = String(decoding: try #require(JWSInspector.payload(of: token)), as: UTF8.self)
        #expect(payload.contains("\"exp\":1795306522.66"))
        #expect(payload.contains("\"iat\":1795306222.66"))
        let decoded = try verify(token)
        #expect(abs(decoded.expiresAt.timeIntervalSince1970 - 1_795_306_522.6611803) < 0.001)
        #expect(abs((decoded.issuedAt?.timeIntervalSince1970 ?? 0) - 1_795_306_222.6611803) < 0.001)
        // The literal example from reference §2.
        #expect(throws: Never.self) {
            try verify(try claims(#"{\#(base),"iat":1795306222.6611803,"exp":1795306522.6611803}"#))
        }
    }

    @Test func acceptsArrayAudienceAndOtherOptionMixes() throws {
        for options in [
            APITokenSigner.Options(includeIssuedAt: true, fractionalDates: false, audienceAsArray: true),
            APITokenSigner.Options(includeIssuedAt: false, fractionalDates: true, audienceAsArray: true),
            APITokenSigner.Options(includeIssuedAt: true, fractionalDates: true, lifetime: 3600),
        ] {
            #expect(throws: Never.self) { try verify(try signer().token(now: now, options: options)) }
        }
        #expect(throws: Never.self) {
            try verify(try claims(#"{"iss":"\#(generated.key.issuerId)","bid":"com.example.app","aud":["x","appstoreconnect-v1"],"exp":1795306300}"#))
        }
    }

    @Test func rejectsMalformedTokens() throws {
        let token = try signer().token(now: now)
        for garbage in ["", "Bearer ", "a.b", "a.b.c", "a.b.c.d", "....", token + ".x", "é.é.é"] {
            #expect(throws: APIAuthError.malformed) { try verify(garbage) }
        }
        #expect(throws: APIAuthError.malformed) { try verify(try claims(#"{\#(base),"exp":"soon"}"#)) }
        #expect(throws: APIAuthError.malformed) { try verify(try claims("[]")) }
        #expect(throws: APIAuthError.malformed) { try verify(try claims("{}", header: "[]")) }
    }

    @Test func rejectsOtherAlgorithms() throws {
        for alg in ["HS256", "none", "ES384", "RS256"] {
            var options = APITokenSigner.Options.python
            options.algorithm = alg
            #expect(throws: APIAuthError.unsupportedAlgorithm) { try verify(try signer().token(now: now, options: options)) }
        }
    }

    @Test func rejectsUnknownKeys() throws {
        let stranger = APIKeyFactory.generate(bundleId: "com.example.app")
        #expect(throws: APIAuthError.unknownKey) { try verify(try APITokenSigner(generated: stranger).token(now: now)) }
        #expect(throws: APIAuthError.unknownKey) {
            try verify(try claims(#"{\#(base),"exp":1795306300}"#, header: #"{"alg":"ES256","typ":"JWT"}"#))
        }
        var broken = generated.key
        broken.publicKeyPEM = "nonsense"
        #expect(throws: APIAuthError.unknownKey) {
            try verifier.verify(try signer().token(now: now), now: now) { _ in broken }
        }
    }

    @Test func rejectsBadSignatures() throws {
        // Same kid, different private key.
        let impostor = APIKeyFactory.generate(bundleId: "com.example.app", issuerId: generated.key.issuerId)
        let forged = try APITokenSigner(
            keyId: generated.key.keyId, issuerId: generated.key.issuerId, bundleId: "com.example.app",
            privateKeyP8: impostor.privateKeyP8).token(now: now)
        #expect(throws: APIAuthError.badSignature) { try verify(forged) }

        let parts = try signer().token(now: now).split(separator: ".").map(String.init)
        #expect(throws: APIAuthError.badSignature) { try verify(parts[0] + "." + parts[1] + ".") }
        #expect(throws: APIAuthError.badSignature) { try verify(parts[0] + "." + parts[1] + ".AAAA") }
        let tampered = Base64URL.encode(Array(#"{\#(base),"exp":1895306300}"#.utf8))
        #expect(throws: APIAuthError.badSignature) { try verify(parts[0] + "." + tampered + "." + parts[2]) }
    }

    @Test func rejectsWrongIssuerBundleAndAudience() throws {
        let wrongIssuer = try APITokenSigner(
            keyId: generated.key.keyId, issuerId: UUID().uuidString.lowercased(), bundleId: "com.example.app",
            privateKeyP8: generated.privateKeyP8)
        #expect(throws: APIAuthError.wrongIssuer) { try verify(wrongIssuer.token(now: now)) }

        let wrongBundle = try APITokenSigner(
            keyId: generated.key.keyId, issuerId: generated.key.issuerId, bundleId: "com.example.other",
            privateKeyP8: generated.privateKeyP8)
        #expect(throws: APIAuthError.wrongBundle) { try verify(wrongBundle.token(now: now)) }
        #expect(throws: APIAuthError.wrongBundle) {
            try verify(try claims(#"{"iss":"\#(generated.key.issuerId)","aud":"appstoreconnect-v1","exp":1795306300}"#))
        }

        var options = APITokenSigner.Options.python
        options.audience = "promotional-offer"
        #expect(throws: APIAuthError.wrongAudience) { try verify(try signer().token(now: now, options: options)) }
        options.audienceAsArray = true
        #expect(throws: APIAuthError.wrongAudience) { try verify(try signer().token(now: now, options: options)) }
        #expect(throws: APIAuthError.wrongAudience) {
            try verify(try claims(#"{"iss":"\#(generated.key.issuerId)","bid":"com.example.app","exp":1795306300}"#))
        }
    }

    @Test func enforcesExpiryLifetimeAndIssuedAt() throws {
        let token = try signer().token(now: now, options: .swift)  // exp = now + 300
        #expect(throws: Never.self) { try verify(token, at: now.addingTimeInterval(300 + 59)) }  // within skew
        #expect(throws: APIAuthError.expired) { try verify(token, at: now.addingTimeInterval(300 + 61)) }

        #expect(throws: APIAuthError.missingExpiry) { try verify(try claims("{\(base)}")) }

        var long = APITokenSigner.Options.swift
        long.lifetime = 3600 + 61
        #expect(throws: APIAuthError.lifetimeTooLong) { try verify(try signer().token(now: now, options: long)) }
        long.lifetime = 3600 + 59
        #expect(throws: Never.self) { try verify(try signer().token(now: now, options: long)) }
        // Without iat the lifetime is measured from now (Python tokens).
        long = .python
        long.lifetime = 2 * 3600
        #expect(throws: APIAuthError.lifetimeTooLong) { try verify(try signer().token(now: now, options: long)) }

        // iat slightly ahead is tolerated; far ahead is not.
        #expect(throws: Never.self) { try verify(try signer().token(now: now.addingTimeInterval(30), options: .swift)) }
        #expect(throws: APIAuthError.notYetValid) { try verify(try signer().token(now: now.addingTimeInterval(600), options: .swift)) }
        #expect(throws: APIAuthError.notYetValid) {
            try verify(try claims(#"{\#(base),"nbf":1795306900,"exp":1795306300}"#))
        }

        let strict = APITokenVerifier(maxLifetime: 600, clockSkew: 0)
        var options = APITokenSigner.Options.swift
        options.lifetime = 601
        #expect(throws: APIAuthError.lifetimeTooLong) {
            try strict.verify(try signer().token(now: now, options: options), now: now, key: lookup)
        }
    }
}
