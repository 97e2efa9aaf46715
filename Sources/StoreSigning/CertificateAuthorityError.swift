/// Why a ``CertificateAuthority`` could not be generated or reloaded.
public enum CertificateAuthorityError: Error, Sendable, Equatable {
    /// A PEM certificate or key in the material could not be parsed.
    case unreadable(String)
    /// The material parses but does not form our chain (wrong key, wrong issuer, bad signature).
    case inconsistent(String)
}
