/// Everything needed to rebuild a ``CertificateAuthority``, as PEM text.
///
/// Persisting it keeps a store's root stable across restarts, so clients that pinned our root
/// (as Apple's `SignedDataVerifier` does) keep verifying what we sign.
public struct CertificateAuthorityMaterial: Codable, Sendable, Equatable {
    /// The self-signed root: the certificate clients pin, handed out as `CertificateAuthority.rootPEM`.
    public var rootCertificatePEM: String
    /// PKCS#8 PEM of the root key; only needed to re-issue the intermediate.
    public var rootPrivateKeyPEM: String
    /// The intermediate, issued by the root; reloading checks that the root's signature on it holds.
    public var intermediateCertificatePEM: String
    /// PKCS#8 PEM of the intermediate key; only needed to re-issue the leaf.
    public var intermediatePrivateKeyPEM: String
    /// The leaf, issued by the intermediate; reloading checks it matches `leafPrivateKeyPEM`.
    public var leafCertificatePEM: String
    /// PKCS#8 PEM of the P-256 key that signs every JWS.
    public var leafPrivateKeyPEM: String

    /// Takes the six PEM texts as stored; `CertificateAuthority(material:)` checks that they belong together.
    public init(
        rootCertificatePEM: String, rootPrivateKeyPEM: String,
        intermediateCertificatePEM: String, intermediatePrivateKeyPEM: String,
        leafCertificatePEM: String, leafPrivateKeyPEM: String
    ) {
        self.rootCertificatePEM = rootCertificatePEM
        self.rootPrivateKeyPEM = rootPrivateKeyPEM
        self.intermediateCertificatePEM = intermediateCertificatePEM
        self.intermediatePrivateKeyPEM = intermediatePrivateKeyPEM
        self.leafCertificatePEM = leafCertificatePEM
        self.leafPrivateKeyPEM = leafPrivateKeyPEM
    }
}
