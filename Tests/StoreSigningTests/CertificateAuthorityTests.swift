import Crypto
import Foundation
import SwiftASN1
import Testing
import X509
@testable import StoreSigning

/// The chain must match reference §5.4 exactly: Apple's strict verifier rejects small deviations.
struct CertificateAuthorityTests {
    private static let derNull: ArraySlice<UInt8> = [0x05, 0x00]

    @Test func rootFollowsTheRecipe() throws {
        let ca = try CertificateAuthority.generate()
        let root = ca.rootCertificate
        #expect(root.version == .v3)
        #expect(root.issuer == root.subject)
        #expect(root.subject.description == "CN=OpenStoreKit Root CA,O=OpenStoreKit")
        #expect(root.publicKey.isValidSignature(root.signature, for: root))

        let bc = try #require(root.extensions[oid: .X509ExtensionID.basicConstraints])
        #expect(bc.critical)
        #expect(try root.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: nil))
        let ku = try #require(root.extensions[oid: .X509ExtensionID.keyUsage])
        #expect(ku.critical)
        #expect(try root.extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
        let ski = try #require(try root.extensions.subjectKeyIdentifier)
        #expect(ski == SubjectKeyIdentifier(hash: root.publicKey))
        #expect(root.extensions[oid: .X509ExtensionID.authorityKeyIdentifier] == nil)
        #expect(root.extensions.count == 3)
    }

    @Test func intermediateFollowsTheRecipe() throws {
        let ca = try CertificateAuthority.generate()
        let intermediate = ca.intermediateCertificate
        #expect(intermediate.subject.description == "CN=OpenStoreKit Intermediate CA,O=OpenStoreKit")
        #expect(intermediate.issuer == ca.rootCertificate.subject)
        #expect(ca.rootCertificate.publicKey.isValidSignature(intermediate.signature, for: intermediate))

        let bc = try #require(intermediate.extensions[oid: .X509ExtensionID.basicConstraints])
        #expect(bc.critical)
        #expect(try intermediate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        let ku = try #require(intermediate.extensions[oid: .X509ExtensionID.keyUsage])
        #expect(ku.critical)
        #expect(try intermediate.extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
        #expect(try intermediate.extensions.subjectKeyIdentifier == SubjectKeyIdentifier(hash: intermediate.publicKey))
        let aki = try #require(try intermediate.extensions.authorityKeyIdentifier)
        #expect(aki.keyIdentifier == (try ca.rootCertificate.extensions.subjectKeyIdentifier)?.keyIdentifier)

        let marker = try #require(intermediate.extensions[oid: [1, 2, 840, 113635, 100, 6, 2, 1]])
        #expect(!marker.critical)
        #expect(marker.value == Self.derNull)
        #expect(intermediate.extensions[oid: CertificateProfile.leafMarkerOID] == nil)
    }

    @Test func leafFollowsTheRecipe() throws {
        let ca = try CertificateAuthority.generate()
        let leaf = ca.leafCertificate
        #expect(leaf.subject.description == "CN=OpenStoreKit Store Signing,O=OpenStoreKit")
        #expect(leaf.issuer == ca.intermediateCertificate.subject)
        #expect(ca.intermediateCertificate.publicKey.isValidSignature(leaf.signature, for: leaf))
        #expect(P256.Signing.PublicKey(leaf.publicKey) != nil, "leaf key must be P-256")
        #expect(P256.Signing.PublicKey(leaf.publicKey)?.rawRepresentation == ca.leafPrivateKey.publicKey.rawRepresentation)

        let bc = try #require(leaf.extensions[oid: .X509ExtensionID.basicConstraints])
        #expect(bc.critical)
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        let ku = try #require(leaf.extensions[oid: .X509ExtensionID.keyUsage])
        #expect(ku.critical)
        #expect(try leaf.extensions.keyUsage == KeyUsage(digitalSignature: true))
        #expect(try leaf.extensions.subjectKeyIdentifier == SubjectKeyIdentifier(hash: leaf.publicKey))
        let aki = try #require(try leaf.extensions.authorityKeyIdentifier)
        #expect(aki.keyIdentifier == (try ca.intermediateCertificate.extensions.subjectKeyIdentifier)?.keyIdentifier)

        let marker = try #require(leaf.extensions[oid: [1, 2, 840, 113635, 100, 6, 11, 1]])
        #expect(!marker.critical)
        #expect(marker.value == Self.derNull)
        #expect(leaf.extensions[oid: CertificateProfile.intermediateMarkerOID] == nil)
    }

    @Test func validityCoversTwoCenturiesAndSerialsAreRandom() throws {
        let a = try CertificateAuthority.generate()
        let b = try CertificateAuthority.generate()
        let start = try #require(ISO8601DateFormatter().date(from: "2000-01-01T00:00:00Z"))
        let end = try #require(ISO8601DateFormatter().date(from: "2199-12-31T23:59:59Z"))
        for certificate in [a.rootCertificate, a.intermediateCertificate, a.leafCertificate] {
            #expect(certificate.notValidBefore == start)
            #expect(certificate.notValidAfter == end)
        }
        let serials = [a, b].flatMap { [$0.rootCertificate, $0.intermediateCertificate, $0.leafCertificate].map(\.serialNumber) }
        #expect(Set(serials).count == 6)
        #expect(a.chainDER == [a.leafDER, a.intermediateDER, a.rootDER])
        #expect(a.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    /// swift-certificates' RFC 5280 verifier is what Apple's Swift library runs (reference §5.2).
    @Test(arguments: ["2026-06-01T12:00:00Z", "2150-01-01T00:00:00Z", "2000-01-01T00:00:00Z", "2199-12-31T23:59:59Z"])
    func swiftCertificatesVerifierAcceptsTheChain(at time: String) async throws {
        let ca = try CertificateAuthority.generate()
        let date = try #require(ISO8601DateFormatter().date(from: time))
        var verifier = Verifier(rootCertificates: CertificateStore([ca.rootCertificate])) {
            RFC5280Policy(validationTime: date)
            AppStoreMarkerPolicy()
        }
        let result = await verifier.validate(
            leaf: ca.leafCertificate, intermediates: CertificateStore([ca.intermediateCertificate]))
        guard case .validCertificate(let chain) = result else {
            Issue.record("chain rejected at \(time): \(result)")
            return
        }
        #expect(Array(chain) == [ca.leafCertificate, ca.intermediateCertificate, ca.rootCertificate])
    }

    @Test(arguments: ["1999-12-31T23:59:59Z", "2200-01-01T00:00:00Z"])
    func swiftCertificatesVerifierRejectsOutsideTheWindow(at time: String) async throws {
        let ca = try CertificateAuthority.generate()
        let date = try #require(ISO8601DateFormatter().date(from: time))
        var verifier = Verifier(rootCertificates: CertificateStore([ca.rootCertificate])) {
            RFC5280Policy(validationTime: date)
        }
        let result = await verifier.validate(
            leaf: ca.leafCertificate, intermediates: CertificateStore([ca.intermediateCertificate]))
        guard case .couldNotValidate = result else {
            Issue.record("chain accepted at \(time)")
            return
        }
    }

    @Test func anotherRootDoesNotValidateTheChain() async throws {
        let ca = try CertificateAuthority.generate()
        let other = try CertificateAuthority.generate()
        var verifier = Verifier(rootCertificates: CertificateStore([other.rootCertificate])) {
            RFC5280Policy(validationTime: Date())
        }
        let result = await verifier.validate(
            leaf: ca.leafCertificate, intermediates: CertificateStore([ca.intermediateCertificate]))
        guard case .couldNotValidate = result else {
            Issue.record("chain accepted under a foreign root")
            return
        }
    }

    @Test func materialRoundTripsThroughJSON() throws {
        let ca = try CertificateAuthority.generate()
        let json = try JSONEncoder().encode(ca.material)
        let material = try JSONDecoder().decode(CertificateAuthorityMaterial.self, from: json)
        #expect(material == ca.material)
        #expect(material.leafPrivateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))

        let reloaded = try CertificateAuthority(material: material)
        #expect(reloaded.rootDER == ca.rootDER)
        #expect(reloaded.chainDER == ca.chainDER)
        #expect(reloaded.rootPEM == ca.rootPEM)
        #expect(reloaded.leafPrivateKey.rawRepresentation == ca.leafPrivateKey.rawRepresentation)

        // A signer built from reloaded material verifies against the original root, and vice versa.
        let verifier = try JWSVerifier(rootCertificateDER: ca.rootDER)
        let jws = JWSSigner(authority: reloaded).sign(payloadJSON: Array(#"{"signedDate":1767225600000}"#.utf8))
        #expect(try verifier.verify(jws) == Array(#"{"signedDate":1767225600000}"#.utf8))
        let original = JWSSigner(authority: ca).sign(payloadJSON: Array("{}".utf8))
        #expect(try JWSVerifier(rootCertificateDER: reloaded.rootDER).verify(original) == Array("{}".utf8))
    }

    @Test func corruptOrMixedMaterialIsRejected() throws {
        let a = try CertificateAuthority.generate()
        let b = try CertificateAuthority.generate()

        var garbage = a.material
        garbage.leafCertificatePEM = "not a certificate"
        #expect(throws: CertificateAuthorityError.self) { try CertificateAuthority(material: garbage) }

        var wrongKey = a.material
        wrongKey.leafPrivateKeyPEM = b.material.leafPrivateKeyPEM
        #expect(throws: CertificateAuthorityError.self) { try CertificateAuthority(material: wrongKey) }

        var foreignLeaf = a.material
        foreignLeaf.leafCertificatePEM = b.material.leafCertificatePEM
        foreignLeaf.leafPrivateKeyPEM = b.material.leafPrivateKeyPEM
        #expect(throws: CertificateAuthorityError.inconsistent("leaf is not issued by the intermediate")) {
            try CertificateAuthority(material: foreignLeaf)
        }

        var badRootKey = a.material
        badRootKey.rootPrivateKeyPEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"
        #expect(throws: CertificateAuthorityError.self) { try CertificateAuthority(material: badRootKey) }
    }
}

/// The marker-OID check Apple's Swift library adds on top of RFC 5280 (`AppStoreOIDPolicy`).
struct AppStoreMarkerPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else { return .failsToMeetPolicy(reason: "chain length \(chain.count)") }
        guard chain[0].extensions[oid: CertificateProfile.leafMarkerOID] != nil,
              chain[1].extensions[oid: CertificateProfile.intermediateMarkerOID] != nil
        else { return .failsToMeetPolicy(reason: "missing marker OID") }
        return .meetsPolicy
    }
}
