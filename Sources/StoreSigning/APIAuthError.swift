/// Why a Server API bearer token was refused. Apple answers all of these with a bare HTTP 401;
/// the case exists for our logs and tests.
public enum APIAuthError: Error, Sendable, Equatable {
    /// Not a three-segment JWT with JSON header/claims of the expected types.
    case malformed
    /// Header `alg` is not ES256.
    case unsupportedAlgorithm
    /// Header `kid` names no registered key (or its public key cannot be read).
    case unknownKey
    /// The ES256 signature does not verify with the registered key.
    case badSignature
    /// `iss` is not the key's issuer ID.
    case wrongIssuer
    /// `bid` is not the key's bundle ID.
    case wrongBundle
    /// `aud` is not, and does not contain, `appstoreconnect-v1`.
    case wrongAudience
    /// `exp` is in the past (beyond the allowed clock skew).
    case expired
    /// `exp − (iat ?? now)` exceeds the maximum lifetime.
    case lifetimeTooLong
    /// No `exp` claim.
    case missingExpiry
    /// `iat` (or `nbf`) is in the future beyond the allowed clock skew.
    case notYetValid
}
