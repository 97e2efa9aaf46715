/// Everything needed to rebuild a ``CertificateAuthority``, as PEM text.
///
/// Persisting it keeps a store's root stable across restarts, so clients that pinned our root
/// (as Apple's `SignedDataVerifier` does) keep verifying what we sign.
public struct CertificateAuthorityMaterial: Codable, Sendable, Equatable {
    public var rootCertificatePEM: String
    /// PKCS#8 PEM of the root key; only needed to re-issue the intermediate.
    public var rootPrivateKeyPEM: String
    public var intermediateCertificatePEM: String
    /// PKCS#8 PEM of the intermediate key; only needed to re-issue the leaf.
    public var intermediatePrivateKeyPEM: String
    public var leafCertificatePEM: String
    /// PKCS#8 PEM of the P-256 key that signs every JWS.
    public var leafPrivateKeyPEM: String

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
