import Crypto
import Foundation
import StoreTestSupport
import SwiftASN1
import Testing
import X509
@testable import StoreSigning

/// JWS as Apple's `SignedDataVerifier` expects it (reference §5.2, §5.4).
struct JWSTests {
    struct Transaction: Codable, Equatable {
        var bundleId = "com.example.app"
        var environment = "Sandbox"
        var signedDate: Int64 = 1_767_225_600_000  // 2026-01-01
        var productId = "com.example.app/pro+monthly"
    }

    let ca: CertificateAuthority
    let signer: JWSSigner
    let verifier: JWSVerifier

    init() throws {
        ca = try CertificateAuthority.generate()
        signer = JWSSigner(authority: ca)
        verifier = try JWSVerifier(rootCertificateDER: ca.rootDER)
    }

    private func segments(_ jws: String) -> [String] { jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    private func replaceHeader(of jws: String, with header: String, resignWith key: P256.Signing.PrivateKey? = nil) throws -> String {
        let parts = segments(jws)
        let input = Base64URL.encode(Array(header.utf8)) + "." + parts[1]
        let signingKey = key ?? ca.leafPrivateKey
        let signature = try signingKey.signature(for: Array(input.utf8))
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    @Test func headerHasExactlyAlgAndX5c() throws {
        let jws = try signer.sign(Transaction())
        let header = try #require(JWSInspector.header(of: jws))
        #expect(Set(header.keys) == ["alg", "x5c"])
        #expect(header["alg"] as? String == "ES256")
        let x5c = try #require(header["x5c"] as? [String])
        #expect(x5c.count == 3)
        #expect(x5c == ca.chainDER.map { Data($0).base64EncodedString() })  // standard, padded
        #expect(x5c.allSatisfy { $0.utf8.count % 4 == 0 && !$0.contains("-") && !$0.contains("_") })

        let typed = JWSSigner(authority: ca, includeType: true).sign(payloadJSON: Array("{}".utf8))
        #expect(Set(try #require(JWSInspector.header(of: typed)).keys) == ["alg", "typ", "x5c"])
        #expect(try verifier.verify(typed) == Array("{}".utf8))
    }

    @Test func signatureIsRawRAndSInBase64URL() throws {
        let jws = signer.sign(payloadJSON: Array(#"{"a":1}"#.utf8))
        let parts = segments(jws)
        #expect(parts.count == 3)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(signature.count == 64)
        let key = ca.leafPrivateKey.publicKey
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(key.isValidSignature(ecdsa, for: Array((parts[0] + "." + parts[1]).utf8)))
        #expect(JWSInspector.payload(of: jws) == Array(#"{"a":1}"#.utf8))
    }

    @Test func encodableRoundTripWithoutEscapedSlashes() throws {
        let jws = try signer.sign(Transaction())
        let payload = try #require(JWSInspector.payload(of: jws))
        let text = String(decoding: payload, as: UTF8.self)
        #expect(text.contains("com.example.app/pro+monthly"))
        #expect(!text.contains("\\/"))
        #expect(try verifier.verifyAndDecode(Transaction.self, from: jws) == Transaction())
    }

    @Test func verifiesAtSignedDateAndFarFutureDates() throws {
        for signedDate: Int64 in [946_684_800_000, 1_767_225_600_000, 5_680_281_600_000, 7_258_118_399_000] {
            var transaction = Transaction()
            transaction.signedDate = signedDate
            #expect(try verifier.verifyAndDecode(Transaction.self, from: signer.sign(transaction)) == transaction)
        }
        // Fractional milliseconds (as Xcode emits) are accepted.
        let fractional = signer.sign(payloadJSON: Array(#"{"signedDate":1697679936049.7297}"#.utf8))
        #expect(throws: Never.self) { try verifier.verify(fractional) }
        // receiptCreationDate is the fallback (app transactions).
        let app = signer.sign(payloadJSON: Array(#"{"receiptCreationDate":1767225600000,"nested":{"signedDate":"x"}}"#.utf8))
        #expect(throws: Never.self) { try verifier.verify(app) }
    }

    @Test func rejectsDatesOutsideTheChainValidity() throws {
        let late = signer.sign(payloadJSON: Array(#"{"signedDate":7258118400000}"#.utf8))  // 2200-01-01
        #expect(throws: JWSError.self) { try verifier.verify(late) }
        let early = signer.sign(payloadJSON: Array(#"{"receiptCreationDate":946684799000}"#.utf8))
        #expect(throws: JWSError.self) { try verifier.verify(early) }
        // An explicit validation time overrides the payload.
        #expect(throws: Never.self) { try verifier.verify(late, validationTime: Date(timeIntervalSince1970: 1_767_225_600)) }
        let ok = signer.sign(payloadJSON: Array(#"{"signedDate":1767225600000}"#.utf8))
        #expect(throws: JWSError.invalidChain("certificates are not valid at \(Date(timeIntervalSince1970: 7_258_118_400))")) {
            try verifier.verify(ok, validationTime: Date(timeIntervalSince1970: 7_258_118_400))
        }
        // No date in the payload: now.
        #expect(throws: Never.self) { try verifier.verify(signer.sign(payloadJSON: Array(#"{"x":[1,{"signedDate":1}]}"#.utf8))) }
    }

    @Test func tamperedPayloadOrSignatureFails() throws {
        let jws = try signer.sign(Transaction())
        let parts = segments(jws)

        var other = Transaction()
        other.productId = "free"
        let forgedPayload = parts[0] + "." + Base64URL.encode(try JSONEncoder().encode(other)) + "." + parts[2]
        #expect(throws: JWSError.invalidSignature) { try verifier.verify(forgedPayload) }

        var signature = try #require(Base64URL.decode(parts[2]))
        signature[10] ^= 0x01
        let forgedSignature = parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
        #expect(throws: JWSError.invalidSignature) { try verifier.verify(forgedSignature) }

        let der = try ca.leafPrivateKey.signature(for: Array((parts[0] + "." + parts[1]).utf8)).derRepresentation
        #expect(throws: JWSError.invalidSignature) { try verifier.verify(parts[0] + "." + parts[1] + "." + Base64URL.encode(der)) }

        // Signed by a key that is not the leaf's.
        let header = String(decoding: try #require(JWSInspector.headerJSON(of: jws)), as: UTF8.self)
        let wrongKey = try replaceHeader(of: jws, with: header, resignWith: P256.Signing.PrivateKey())
        #expect(throws: JWSError.invalidSignature) { try verifier.verify(wrongKey) }
    }

    @Test func jwsFromAnotherAuthorityFails() throws {
        let other = try CertificateAuthority.generate()
        let jws = try JWSSigner(authority: other).sign(Transaction())
        #expect(throws: JWSError.invalidChain("intermediate is not issued by the trusted root")) { try verifier.verify(jws) }

        // Even when it claims our root as x5c[2]: only x5c[0] and x5c[1] are used.
        let b64 = { (der: [UInt8]) in "\"" + Data(der).base64EncodedString() + "\"" }
        let header = "{\"alg\":\"ES256\",\"x5c\":[\(b64(other.leafDER)),\(b64(other.intermediateDER)),\(b64(ca.rootDER))]}"
        let spoofed = try replaceHeader(of: jws, with: header, resignWith: other.leafPrivateKey)
        #expect(throws: JWSError.self) { try verifier.verify(spoofed) }

        // Our leaf + intermediate with garbage in x5c[2] still verifies, like Apple's verifier.
        let garbageRoot = "{\"alg\":\"ES256\",\"x5c\":[\(b64(ca.leafDER)),\(b64(ca.intermediateDER)),\"AAAA\"]}"
        #expect(throws: Never.self) { try verifier.verify(try replaceHeader(of: jws, with: garbageRoot)) }
    }

    @Test func chainShapeIsEnforced() throws {
        let jws = try signer.sign(Transaction())
        let b64 = { (der: [UInt8]) in "\"" + Data(der).base64EncodedString() + "\"" }
        let two = "{\"alg\":\"ES256\",\"x5c\":[\(b64(ca.leafDER)),\(b64(ca.intermediateDER))]}"
        #expect(throws: JWSError.invalidChain("x5c must have exactly 3 certificates, has 2")) {
            try verifier.verify(try replaceHeader(of: jws, with: two))
        }
        let missing = "{\"alg\":\"ES256\",\"x5cwrong\":[]}"
        #expect(throws: JWSError.malformed("header has no x5c")) { try verifier.verify(try replaceHeader(of: jws, with: missing)) }
        // URL-safe, unpadded x5c is refused (Apple: INVALID_CERTIFICATE).
        let urlSafe = "{\"alg\":\"ES256\",\"x5c\":[\"\(Base64URL.encode(ca.leafDER))\",\(b64(ca.intermediateDER)),\(b64(ca.rootDER))]}"
        #expect(throws: JWSError.invalidChain("leaf certificate is not standard padded base64")) {
            try verifier.verify(try replaceHeader(of: jws, with: urlSafe))
        }
        // Swapped leaf and intermediate.
        let swapped = "{\"alg\":\"ES256\",\"x5c\":[\(b64(ca.intermediateDER)),\(b64(ca.leafDER)),\(b64(ca.rootDER))]}"
        #expect(throws: JWSError.self) { try verifier.verify(try replaceHeader(of: jws, with: swapped)) }
    }

    @Test func markerOIDsAreRequired() throws {
        // A chain built like ours but without the leaf marker.
        let rootKey = P256.Signing.PrivateKey(), intermediateKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("R") }
        let intermediateName = try DistinguishedName { CommonName("I") }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
            notValidBefore: CertificateProfile.notValidBefore, notValidAfter: CertificateProfile.notValidAfter,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil)) },
            issuerPrivateKey: .init(rootKey))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: CertificateProfile.notValidBefore, notValidAfter: CertificateProfile.notValidAfter,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Certificate.Extension(oid: CertificateProfile.intermediateMarkerOID, critical: false, value: [0x05, 0x00])
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
            notValidBefore: CertificateProfile.notValidBefore, notValidAfter: CertificateProfile.notValidAfter,
            issuer: intermediateName, subject: try DistinguishedName { CommonName("L") }, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
            issuerPrivateKey: .init(intermediateKey))
        func der(_ c: Certificate) throws -> String { Data(try derBytes(c)).base64EncodedString() }
        let header = "{\"alg\":\"ES256\",\"x5c\":[\"\(try der(leaf))\",\"\(try der(intermediate))\",\"\(try der(root))\"]}"
        let jws = try replaceHeader(of: signer.sign(payloadJSON: Array("{}".utf8)), with: header, resignWith: leafKey)
        let verifier = try JWSVerifier(rootCertificateDER: Array(try #require(Data(base64Encoded: try der(root)))))
        #expect(throws: JWSError.invalidChain("leaf lacks marker OID 1.2.840.113635.100.6.11.1")) { try verifier.verify(jws) }
    }

    @Test func wrongAlgorithmFails() throws {
        let jws = try signer.sign(Transaction())
        let header = String(decoding: try #require(JWSInspector.headerJSON(of: jws)), as: UTF8.self)
        for alg in ["none", "HS256", "ES384", "RS256"] {
            let forged = try replaceHeader(of: jws, with: header.replacingOccurrences(of: "\"ES256\"", with: "\"\(alg)\""))
            #expect(throws: JWSError.unsupportedAlgorithm(alg)) { try verifier.verify(forged) }
        }
        let noAlg = try replaceHeader(of: jws, with: header.replacingOccurrences(of: "\"alg\":\"ES256\",", with: ""))
        #expect(throws: JWSError.malformed("header has no alg")) { try verifier.verify(noAlg) }
    }

    @Test func garbageNeverCrashes() throws {
        let jws = try signer.sign(Transaction())
        let parts = segments(jws)
        let inputs = [
            "", ".", "..", "...", "a.b.c", "a.b", "a.b.c.d", "\u{0}", "é.é.é", String(repeating: ".", count: 1000),
            parts[0], parts[0] + ".", parts[0] + "." + parts[1], parts[0] + "." + parts[1] + ".",
            parts[0] + ".!!!." + parts[2], "!!!." + parts[1] + "." + parts[2],
            Base64URL.encode(Array("[]".utf8)) + "." + parts[1] + "." + parts[2],
            Base64URL.encode(Array("{\"alg\":1}".utf8)) + "." + parts[1] + "." + parts[2],
            Base64URL.encode(Array("{\"alg\":\"ES256\",\"x5c\":[1,2,3]}".utf8)) + "." + parts[1] + "." + parts[2],
            Base64URL.encode(Array("{\"alg\":\"ES256\",\"x5c\":[\"\",\"\",\"\"]}".utf8)) + "." + parts[1] + "." + parts[2],
            jws + "=", jws + ".", " " + jws,
        ]
        for input in inputs {
            #expect(throws: JWSError.self, "input \(input.prefix(40))") { try verifier.verify(input) }
            _ = JWSInspector.header(of: input)
            _ = JWSInspector.payload(of: input)
        }
        // Seeded fuzz: random bytes changed, and random truncations. Each changed token must be
        // refused with the error its change calls for (see `expectedRefusal`); the seed is in
        // every failure message, and OPENSTORE_FUZZ_SEED=<seed> replays a run exactly, since the
        // token is a fixed one (a real purchase signed by a store) rather than freshly signed.
        let seed = FuzzSeed.current()
        var generator = SeededGenerator(seed: seed)
        let fixedVerifier = try JWSVerifier(rootCertificateDER: Array(try #require(Data(base64Encoded: FuzzToken.rootDER))))
        let original = Array(FuzzToken.jws.utf8)
        #expect(try fixedVerifier.verify(FuzzToken.jws) == JWSInspector.payload(of: FuzzToken.jws), "the fixed token verifies")
        for round in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...127, using: &generator)
            }
            let cut = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            for input in [bytes, cut] {
                let text = String(decoding: input, as: UTF8.self)
                let outcome = Result { () throws(JWSError) in try fixedVerifier.verify(text) }
                if input == original {
                    #expect(try outcome.get() == JWSInspector.payload(of: FuzzToken.jws), "seed \(seed) round \(round): the unchanged token")
                } else {
                    let expected = expectedRefusal(input, original: original)
                    switch outcome {
                    case .success:
                        Issue.record("seed \(seed) round \(round): a changed token verified: \(text)")
                    case .failure(let error):
                        #expect(expected.matches(error), "seed \(seed) round \(round): \(error), expected \(expected) for \(text)")
                    }
                }
            }
        }
        // Valid signatures over payloads that are not JSON objects.
        for payload in ["", "[]", "1", "{", "{\"signedDate\":}", "{\"a\":1}x", "{\"signedDate\":\"2026\"}"] {
            let signed = signer.sign(payloadJSON: Array(payload.utf8))
            _ = try? verifier.verify(signed)
        }
        #expect(throws: JWSError.malformed("payload is not a JSON object")) {
            try verifier.verify(signer.sign(payloadJSON: Array("[]".utf8)))
        }
        #expect(throws: (any Error).self) { try JWSVerifier(rootCertificateDER: [1, 2, 3]) }
    }

    @Test func verifierIsSafeToShareAcrossTasks() async throws {
        let jws = try signer.sign(Transaction())
        let verifier = self.verifier
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<32 { group.addTask { try verifier.verify(jws) } }
            for try await payload in group { #expect(payload == JWSInspector.payload(of: jws)) }
        }
    }

    @Test func payloadDateScanner() throws {
        func date(_ json: String) throws -> Date? { try PayloadDate.validationDate(in: Array(json.utf8)) }
        #expect(try date(#"{"signedDate":1000}"#) == Date(timeIntervalSince1970: 1))
        #expect(try date(#" { "a" : "}\"{" , "b":[{"signedDate":5}], "signedDate" : -2000 } "#) == Date(timeIntervalSince1970: -2))
        #expect(try date(#"{"receiptCreationDate":3000,"signedDate":1000}"#) == Date(timeIntervalSince1970: 1))
        #expect(try date(#"{"receiptCreationDate":3000}"#) == Date(timeIntervalSince1970: 3))
        #expect(try date(#"{"signedDate":null}"#) == nil)
        #expect(try date(#"{}"#) == nil)
        #expect(throws: PayloadDate.ScanError.self) { try date(#"{"a":1"#) }
        #expect(throws: PayloadDate.ScanError.self) { try date(#"{"signed\u0044ate":1}"#) }
    }
}

/// What the verifier must answer for a changed token, by where the change is: the verifier reads
/// the header first, then the payload segment, then the signature, so the first changed segment
/// decides. Any change to the signed text (header or payload) breaks the signature.
enum Refusal: CustomStringConvertible {
    case segments, headerBase64, header, payloadBase64, signature

    func matches(_ error: JWSError) -> Bool {
        switch (self, error) {
        case (.segments, .malformed("expected three dot-separated segments")): true
        case (.headerBase64, .malformed("header segment is not base64url")): true
        // A changed header may stop being base64url, JSON, ES256 or a chain to the root, or,
        // still all of those, no longer be what the signature covers.
        case (.header, .malformed), (.header, .unsupportedAlgorithm), (.header, .invalidChain), (.header, .invalidSignature): true
        case (.payloadBase64, .malformed("payload segment is not base64url")): true
        case (.signature, .invalidSignature): true
        default: false
        }
    }

    var description: String {
        switch self {
        case .segments: "malformed(three segments)"
        case .headerBase64: "malformed(header not base64url)"
        case .header: "a header error"
        case .payloadBase64: "malformed(payload not base64url)"
        case .signature: "invalidSignature"
        }
    }
}

func expectedRefusal(_ input: [UInt8], original: [UInt8]) -> Refusal {
    let parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    let was = original.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3 else { return .segments }
    func isBase64URL(_ segment: ArraySlice<UInt8>) -> Bool { Array(segment).withUnsafeBytes { Base64URL.decode($0) } != nil }
    if parts[0] != was[0] {
        return isBase64URL(parts[0]) ? .header : .headerBase64
    }
    if parts[1] != was[1] {
        return isBase64URL(parts[1]) ? .signature : .payloadBase64
    }
    return .signature
}

/// A transaction signed by an `openstore serve` store (Backyard Birds pellets, 2026-11-23), and
/// that store's root certificate: the fuzz's fixed input.
enum FuzzToken {
    static let jws = "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlCOERDQ0FaZWdBd0lCQWdJVkFNNExZR2xxK0JYelNJWldoc3J3MDBpR0NFY0tNQW9HQ0NxR1NNNDlCQU1DTUQ0eEZUQVRCZ05WQkFvTURFOXdaVzVUZEc5eVpVdHBkREVsTUNNR0ExVUVBd3djVDNCbGJsTjBiM0psUzJsMElFbHVkR1Z5YldWa2FXRjBaU0JEUVRBZ0Z3MHdNREF4TURFd01EQXdNREJhR0E4eU1UazVNVEl6TVRJek5UazFPVm93UERFVk1CTUdBMVVFQ2d3TVQzQmxibE4wYjNKbFMybDBNU013SVFZRFZRUUREQnBQY0dWdVUzUnZjbVZMYVhRZ1UzUnZjbVVnVTJsbmJtbHVaekJaTUJNR0J5cUdTTTQ5QWdFR0NDcUdTTTQ5QXdFSEEwSUFCSENia2d0MTNhM0N4ZXpyVXEwWFplcUZKSG1MSElpUlBKeUpmcWZFdDNqdFlESmhRdndEeVlPc3R1blNlc2QzTG9McnBETTBDTVJCQVY0Tk5SR2tleG1qY2pCd01Bd0dBMVVkRXdFQi93UUNNQUF3RGdZRFZSMFBBUUgvQkFRREFnZUFNQjBHQTFVZERnUVdCQlFKdERKRThwU1V6Zm14U29jQUd5NmlGKzJoTWpBZkJnTlZIU01FR0RBV2dCUjd0c0FoUFIydDk1QzVzNW82aFV0c3VKUjNCekFRQmdvcWhraUc5Mk5rQmdzQkJBSUZBREFLQmdncWhrak9QUVFEQWdOSEFEQkVBaUFhWDhWWnRHb0RVVFdMQUpMV3M3KytZY0oxamdIeStYQ1ppMjlMUk4zYVNRSWdTZnBEYzY1OSt0b0NSL2ZJU0hIVW1ReXExZFdVUDF5Qlg2aDZVNDNBVnY0PSIsIk1JSUI4VENDQVphZ0F3SUJBZ0lVTlBacEVibUpma2RPMlZBVDhza0tWVGxKbGJzd0NnWUlLb1pJemowRUF3SXdOakVWTUJNR0ExVUVDZ3dNVDNCbGJsTjBiM0psUzJsME1SMHdHd1lEVlFRRERCUlBjR1Z1VTNSdmNtVkxhWFFnVW05dmRDQkRRVEFnRncwd01EQXhNREV3TURBd01EQmFHQTh5TVRrNU1USXpNVEl6TlRrMU9Wb3dQakVWTUJNR0ExVUVDZ3dNVDNCbGJsTjBiM0psUzJsME1TVXdJd1lEVlFRRERCeFBjR1Z1VTNSdmNtVkxhWFFnU1c1MFpYSnRaV1JwWVhSbElFTkJNRmt3RXdZSEtvWkl6ajBDQVFZSUtvWkl6ajBEQVFjRFFnQUVCWTZZYldDRDYxWjZXMHRzWjJrSG1ZVUd5eHNlZzE1Z3AwSGdRVnFpN25rUXBzdHczQXJPNmV2ZVI5SUFvRkNLVnFoSm9qd1RmZjY1SDhUQmxxQ3dmYU40TUhZd0VnWURWUjBUQVFIL0JBZ3dCZ0VCL3dJQkFEQU9CZ05WSFE4QkFmOEVCQU1DQVFZd0hRWURWUjBPQkJZRUZIdTJ3Q0U5SGEzM2tMbXptanFGUzJ5NGxIY0hNQjhHQTFVZEl3UVlNQmFBRktYUmx3bmV1MTdoYVVMcENHdmVaeWFHcms2Tk1CQUdDaXFHU0liM1kyUUdBZ0VFQWdVQU1Bb0dDQ3FHU000OUJBTUNBMGtBTUVZQ0lRQ3BiZFllZzB2VkxGTld4R0xYYVlwUUpPczcyQzhEQndnbFRaVFNBWkdKU3dJaEFOK2Frb2dIckI1dmIvcUVzN3lhMnNnMEpmVTlyUkM0L24zT1c5T21la09kIiwiTUlJQnN6Q0NBVm1nQXdJQkFnSVZBUHFVYkhGc1YyQzBpc3JtN24vWlVUUnZhQUUzTUFvR0NDcUdTTTQ5QkFNQ01EWXhGVEFUQmdOVkJBb01ERTl3Wlc1VGRHOXlaVXRwZERFZE1Cc0dBMVVFQXd3VVQzQmxibE4wYjNKbFMybDBJRkp2YjNRZ1EwRXdJQmNOTURBd01UQXhNREF3TURBd1doZ1BNakU1T1RFeU16RXlNelU1TlRsYU1EWXhGVEFUQmdOVkJBb01ERTl3Wlc1VGRHOXlaVXRwZERFZE1Cc0dBMVVFQXd3VVQzQmxibE4wYjNKbFMybDBJRkp2YjNRZ1EwRXdXVEFUQmdjcWhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUzl4UlVMcWNGdVg1Q2VFd2NNbnNzQ2Zna0lQWHpIenBhaFpxUC9iZFNBNmhXRDBLelljdWZEeEtZb2dJZUl2ZkZYRXU2NjlhaHJkcHJiaWtocTAzWVNvMEl3UURBUEJnTlZIUk1CQWY4RUJUQURBUUgvTUE0R0ExVWREd0VCL3dRRUF3SUJCakFkQmdOVkhRNEVGZ1FVcGRHWENkNjdYdUZwUXVrSWE5NW5Kb2F1VG8wd0NnWUlLb1pJemowRUF3SURTQUF3UlFJZ1BoUlJSS2lTaUFyREJ3c09wUGV4RFpwZGl6MFBrNVZEWi9qaTFEQjloU3dDSVFDY3ZyKzZOdVFmbFNjbzRlR09ZZGt3QXJjNEQvaTVVZ09PbVlTWDl6dTdiQT09Il19.eyJ0cmFuc2FjdGlvbklkIjoiMjAwMDAwMDAwMDAwMDAwMiIsIm9yaWdpbmFsVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDIiLCJidW5kbGVJZCI6ImNvbS5leGFtcGxlLmJhY2t5YXJkYmlyZHMiLCJwcm9kdWN0SWQiOiJjb20uZXhhbXBsZS5iYWNreWFyZGJpcmRzLnBlbGxldHMiLCJwdXJjaGFzZURhdGUiOjE3OTU0MTAyNTgxMzksIm9yaWdpbmFsUHVyY2hhc2VEYXRlIjoxNzk1NDEwMjU4MTM5LCJxdWFudGl0eSI6MSwidHlwZSI6IkNvbnN1bWFibGUiLCJpbkFwcE93bmVyc2hpcFR5cGUiOiJQVVJDSEFTRUQiLCJzaWduZWREYXRlIjoxNzk1NDEwMjU4MTQxLCJlbnZpcm9ubWVudCI6IlNhbmRib3giLCJzdG9yZWZyb250IjoiVVNBIiwic3RvcmVmcm9udElkIjoiMTQzNDQxIiwidHJhbnNhY3Rpb25SZWFzb24iOiJQVVJDSEFTRSIsImN1cnJlbmN5IjoiVVNEIiwicHJpY2UiOjk5MCwiYXBwVHJhbnNhY3Rpb25JZCI6IjIwMDAwMDAwMDAwMDAwMDEifQ.SPcGyv9gISpguc60_Gtvgd2yoE5VswRkw2pWN6ulNLNrcQm7NR8UDSrsf1qKwpr5L1aHJSMadW8kHCSwrbP-HA"
    static let rootDER = "MIIBszCCAVmgAwIBAgIVAPqUbHFsV2C0isrm7n/ZUTRvaAE3MAoGCCqGSM49BAMCMDYxFTATBgNVBAoMDE9wZW5TdG9yZUtpdDEdMBsGA1UEAwwUT3BlblN0b3JlS2l0IFJvb3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjE5OTEyMzEyMzU5NTlaMDYxFTATBgNVBAoMDE9wZW5TdG9yZUtpdDEdMBsGA1UEAwwUT3BlblN0b3JlS2l0IFJvb3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAS9xRULqcFuX5CeEwcMnssCfgkIPXzHzpahZqP/bdSA6hWD0KzYcufDxKYogIeIvfFXEu669ahrdprbikhq03YSo0IwQDAPBgNVHRMBAf8EBTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUpdGXCd67XuFpQukIa95nJoauTo0wCgYIKoZIzj0EAwIDSAAwRQIgPhRRRKiSiArDBwsOpPexDZpdiz0Pk5VDZ/ji1DB9hSwCIQCcvr+6NuQflSco4eGOYdkwArc4D/i5UgOOmYSX9zu7bA=="
}

enum FuzzSeed {
    /// `OPENSTORE_FUZZ_SEED` when set (to replay a failure), else a new random seed.
    static func current() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["OPENSTORE_FUZZ_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }
}

/// DER serialization for certificates built in tests.
func derBytes(_ certificate: Certificate) throws -> [UInt8] {
    var serializer = DER.Serializer()
    try serializer.serialize(certificate)
    return serializer.serializedBytes
}
