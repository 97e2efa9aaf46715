import Crypto
import Foundation
import SwiftASN1
import X509

/// The outcome of validating an `x5c` leaf + intermediate against our root once: the leaf key
/// and the window in which all three certificates are valid. Signatures and extensions do not
/// change with time, so only the window is re-checked per JWS.
struct ValidatedChain: Sendable {
    let leafKey: P256.Signing.PublicKey
    let notValidBefore: Date
    let notValidAfter: Date

    func isValid(at date: Date) -> Bool { date >= notValidBefore && date <= notValidAfter }

    /// Extensions we understand; any other critical extension fails the chain, as in RFC 5280.
    private static let handledCritical: Set<ASN1ObjectIdentifier> = [
        .X509ExtensionID.basicConstraints, .X509ExtensionID.keyUsage, .X509ExtensionID.extendedKeyUsage,
        .X509ExtensionID.subjectAlternativeName,
    ]

    /// Checks what Apple's `SignedDataVerifier` checks with online checks off (reference §5.2
    /// steps 5–6, 7's P-256 requirement): issuer names and signatures up to `root`, CA constraints
    /// on the intermediate, key usages, no unknown critical extension, the marker OIDs.
    static func validate(leafBase64: String, intermediateBase64: String, root: Certificate) throws(JWSError) -> ValidatedChain {
        let leaf = try parse(leafBase64, "leaf")
        let intermediate = try parse(intermediateBase64, "intermediate")

        guard intermediate.issuer == root.subject,
              root.publicKey.isValidSignature(intermediate.signature, for: intermediate)
        else { throw .invalidChain("intermediate is not issued by the trusted root") }
        guard leaf.issuer == intermediate.subject,
              intermediate.publicKey.isValidSignature(leaf.signature, for: leaf)
        else { throw .invalidChain("leaf is not issued by the intermediate") }

        for (certificate, label) in [(leaf, "leaf"), (intermediate, "intermediate")] {
            guard certificate.version == .v3 else { throw .invalidChain("\(label) is not an X.509 v3 certificate") }
            for ext in certificate.extensions where ext.critical && !handledCritical.contains(ext.oid) {
                throw .invalidChain("\(label) has an unhandled critical extension \(ext.oid)")
            }
        }

        guard case .some(.isCertificateAuthority(let maxPathLength)) = try? intermediate.extensions.basicConstraints
        else { throw .invalidChain("intermediate is not a CA") }
        if let maxPathLength, maxPathLength < 0 { throw .invalidChain("intermediate path length is negative") }
        if let usage = try? intermediate.extensions.keyUsage, !usage.keyCertSign {
            throw .invalidChain("intermediate key usage lacks keyCertSign")
        }
        if let usage = try? leaf.extensions.keyUsage, !usage.digitalSignature {
            throw .invalidChain("leaf key usage lacks digitalSignature")
        }

        guard intermediate.extensions[oid: CertificateProfile.intermediateMarkerOID] != nil else {
            throw .invalidChain("intermediate lacks marker OID 1.2.840.113635.100.6.2.1")
        }
        guard leaf.extensions[oid: CertificateProfile.leafMarkerOID] != nil else {
            throw .invalidChain("leaf lacks marker OID 1.2.840.113635.100.6.11.1")
        }
        guard let leafKey = P256.Signing.PublicKey(leaf.publicKey) else {
            throw .invalidChain("leaf key is not P-256")
        }

        let chain = [leaf, intermediate, root]
        return ValidatedChain(
            leafKey: leafKey,
            notValidBefore: chain.map(\.notValidBefore).max() ?? .distantFuture,
            notValidAfter: chain.map(\.notValidAfter).min() ?? .distantPast)
    }

    private static func parse(_ base64: String, _ label: String) throws(JWSError) -> Certificate {
        guard let der = Base64URL.decodeStandard(base64) else {
            throw .invalidChain("\(label) certificate is not standard padded base64")
        }
        guard let certificate = try? Certificate(derEncoded: der) else {
            throw .invalidChain("\(label) certificate is not valid DER")
        }
        return certificate
    }
}
