import Crypto
import Foundation
import SwiftASN1
import X509

/// Root CA → intermediate → P-256 leaf, built per reference §5.4 so Apple's `SignedDataVerifier`
/// (strict OpenSSL mode in Python, swift-certificates in Swift) accepts what the leaf signs when it
/// is handed our root.
///
/// Recipe: BasicConstraints and KeyUsage critical; SubjectKeyIdentifier on all three,
/// AuthorityKeyIdentifier on the two issued ones; Apple's marker OIDs (value DER NULL,
/// non-critical) on the intermediate and the leaf. Every certificate covers
/// ``CertificateProfile/notValidBefore`` ... ``CertificateProfile/notValidAfter`` so any
/// `signedDate` a time-travelling world emits stays inside the chain's validity.
public struct CertificateAuthority: Sendable {
    /// The PEM text this authority was built from, to persist so the root survives a restart.
    public let material: CertificateAuthorityMaterial
    /// The self-signed trust anchor: the certificate clients pin to accept what the leaf signs.
    public let rootCertificate: Certificate
    /// Issued by the root, carrying Apple's WWDR marker OID; `x5c[1]`, and included in signed receipts.
    public let intermediateCertificate: Certificate
    /// Issued by the intermediate, carrying Apple's receipt-signing marker OID; signs JWS and receipts.
    public let leafCertificate: Certificate
    /// The key that signs every JWS; its public half is in ``leafCertificate``.
    public let leafPrivateKey: P256.Signing.PrivateKey
    /// DER bytes of the root, for Apple's verifiers (they take DER) and `x5c[2]`.
    public let rootDER: [UInt8]
    /// DER bytes of the intermediate, `x5c[1]`.
    public let intermediateDER: [UInt8]
    /// DER bytes of the leaf, `x5c[0]`.
    public let leafDER: [UInt8]

    /// `[leaf, intermediate, root]`, the `x5c` order.
    public var chainDER: [[UInt8]] { [leafDER, intermediateDER, rootDER] }
    /// The root to hand to clients that want PEM (Apple's verifiers want ``rootDER``).
    public var rootPEM: String { material.rootCertificatePEM }

    /// Creates fresh keys and a fresh chain. It reads no clock: the chain's fixed validity window
    /// (`CertificateProfile`) covers any plausible world clock.
    public static func generate() throws -> CertificateAuthority {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        do {
            let rootName = try name(CertificateProfile.rootCommonName)
            let intermediateName = try name(CertificateProfile.intermediateCommonName)
            let leafName = try name(CertificateProfile.leafCommonName)

            let rootPublic = Certificate.PublicKey(rootKey.publicKey)
            let rootSKI = SubjectKeyIdentifier(hash: rootPublic)
            let root = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: rootPublic,
                notValidBefore: CertificateProfile.notValidBefore, notValidAfter: CertificateProfile.notValidAfter,
                issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    rootSKI
                },
                issuerPrivateKey: Certificate.PrivateKey(rootKey))

            let intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
            let intermediateSKI = SubjectKeyIdentifier(hash: intermediatePublic)
            let intermediate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: intermediatePublic,
                notValidBefore: CertificateProfile.notValidBefore, notValidAfter: CertificateProfile.notValidAfter,
                issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    intermediateSKI
                    AuthorityKeyIdentifier(keyIdentifier: rootSKI.keyIdentifier)
                    try marker(CertificateProfile.intermediateMarkerOID)
                },
                issuerPrivateKey: Certificate.PrivateKey(rootKey))

            let leafPublic = Certificate.PublicKey(leafKey.publicKey)
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: leafPublic,
                notValidBefore: CertificateProfile.notValidBefore, notValidAfter: CertificateProfile.notValidAfter,
                issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    SubjectKeyIdentifier(hash: leafPublic)
                    AuthorityKeyIdentifier(keyIdentifier: intermediateSKI.keyIdentifier)
                    try marker(CertificateProfile.leafMarkerOID)
                },
                issuerPrivateKey: Certificate.PrivateKey(intermediateKey))

            let material = CertificateAuthorityMaterial(
                rootCertificatePEM: try root.serializeAsPEM().pemString,
                rootPrivateKeyPEM: rootKey.pemRepresentation,
                intermediateCertificatePEM: try intermediate.serializeAsPEM().pemString,
                intermediatePrivateKeyPEM: intermediateKey.pemRepresentation,
                leafCertificatePEM: try leaf.serializeAsPEM().pemString,
                leafPrivateKeyPEM: leafKey.pemRepresentation)
            return try CertificateAuthority(material: material)
        } catch let error as CertificateAuthorityError {
            throw error
        } catch {
            throw CertificateAuthorityError.inconsistent("could not build the chain: \(error)")
        }
    }

    /// Reloads persisted material, checking that it still forms a coherent chain so a corrupted
    /// or mixed-up file fails here rather than producing JWS nobody can verify.
    public init(material: CertificateAuthorityMaterial) throws {
        let root = try Self.certificate(material.rootCertificatePEM, "root certificate")
        let intermediate = try Self.certificate(material.intermediateCertificatePEM, "intermediate certificate")
        let leaf = try Self.certificate(material.leafCertificatePEM, "leaf certificate")
        let leafKey: P256.Signing.PrivateKey
        do {
            leafKey = try P256.Signing.PrivateKey(pemRepresentation: material.leafPrivateKeyPEM)
        } catch {
            throw CertificateAuthorityError.unreadable("leaf private key: \(error)")
        }
        // The CA keys are not needed to sign, but a wrong pairing means the material is corrupt.
        for (pem, cert, label) in [
            (material.rootPrivateKeyPEM, root, "root"),
            (material.intermediatePrivateKeyPEM, intermediate, "intermediate"),
        ] {
            guard let key = try? Certificate.PrivateKey(pemEncoded: pem) else {
                throw CertificateAuthorityError.unreadable("\(label) private key")
            }
            guard key.publicKey == cert.publicKey else {
                throw CertificateAuthorityError.inconsistent("\(label) private key does not match its certificate")
            }
        }
        guard Certificate.PublicKey(leafKey.publicKey) == leaf.publicKey else {
            throw CertificateAuthorityError.inconsistent("leaf private key does not match the leaf certificate")
        }
        guard intermediate.issuer == root.subject,
              root.publicKey.isValidSignature(intermediate.signature, for: intermediate)
        else { throw CertificateAuthorityError.inconsistent("intermediate is not issued by the root") }
        guard leaf.issuer == intermediate.subject,
              intermediate.publicKey.isValidSignature(leaf.signature, for: leaf)
        else { throw CertificateAuthorityError.inconsistent("leaf is not issued by the intermediate") }

        self.material = material
        self.rootCertificate = root
        self.intermediateCertificate = intermediate
        self.leafCertificate = leaf
        self.leafPrivateKey = leafKey
        self.rootDER = try Self.der(root)
        self.intermediateDER = try Self.der(intermediate)
        self.leafDER = try Self.der(leaf)
    }

    private static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            OrganizationName(CertificateProfile.organization)
            CommonName(commonName)
        }
    }

    /// An Apple marker extension: value DER NULL (`05 00`), non-critical, as on Apple's own certificates.
    private static func marker(_ oid: ASN1ObjectIdentifier) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1Null())
        return Certificate.Extension(oid: oid, critical: false, value: serializer.serializedBytes[...])
    }

    private static func certificate(_ pem: String, _ label: String) throws -> Certificate {
        do {
            return try Certificate(pemEncoded: pem)
        } catch {
            throw CertificateAuthorityError.unreadable("\(label): \(error)")
        }
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        do {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        } catch {
            throw CertificateAuthorityError.unreadable("could not serialize certificate: \(error)")
        }
    }
}
