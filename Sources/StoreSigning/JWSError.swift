/// Why a JWS was rejected. The cases mirror how Apple's verifier fails, so callers can map them
/// to its statuses (`INVALID_JWT_FORMAT`, `INVALID_CHAIN`, `VERIFICATION_FAILURE`).
public enum JWSError: Error, Sendable, Equatable {
    /// Not three base64url segments, or a header/payload that is not a JSON object.
    case malformed(String)
    /// `alg` is not `ES256`.
    case unsupportedAlgorithm(String)
    /// `x5c` missing its three entries, not chaining to our root, lacking Apple's marker OIDs,
    /// or not valid at the validation time.
    case invalidChain(String)
    /// The ES256 signature does not verify with the leaf key.
    case invalidSignature
}
