import Crypto
import Foundation

/// Signs compact JWS the way the App Store does: ES256 by the leaf key, header
/// `{"alg":"ES256","x5c":[leaf, intermediate, root]}` with standard padded base64 DER in `x5c`
/// (reference §5.4), signature = raw `r‖s` in base64url.
///
/// Every transaction, renewal and notification passes through here, so the header segment and
/// the SHA-256 state over it are computed once at init; each call only encodes and hashes the
/// payload and does one ECDSA signature.
public struct JWSSigner: Sendable {
    /// The exact protected header JSON, for inspection and tests.
    public let headerJSON: String
    private let key: P256.Signing.PrivateKey
    /// `base64url(header) + "."`.
    private let prefix: [UInt8]
    /// SHA-256 after absorbing ``prefix``; copied per call (copy-on-write) and finished with the payload.
    private let prefixHash: SHA256

    /// - Parameter includeType: add `"typ":"JWT"` (Apple's Python tooling does; both forms verify).
    public init(authority: CertificateAuthority, includeType: Bool = false) {
        let x5c = authority.chainDER.map { "\"" + Base64URL.encodeStandard($0) + "\"" }.joined(separator: ",")
        let header = includeType
            ? "{\"alg\":\"ES256\",\"typ\":\"JWT\",\"x5c\":[\(x5c)]}"
            : "{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}"
        var prefix: [UInt8] = []
        Base64URL.append(Array(header.utf8), to: &prefix)
        prefix.append(UInt8(ascii: "."))
        var hash = SHA256()
        hash.update(data: prefix)
        self.headerJSON = header
        self.key = authority.leafPrivateKey
        self.prefix = prefix
        self.prefixHash = hash
    }

    /// Signs already-encoded JSON bytes and returns the compact JWS.
    public func sign(payloadJSON: some Collection<UInt8>) -> String {
        let payloadCount = payloadJSON.count
        var output: [UInt8] = []
        output.reserveCapacity(prefix.count + Base64URL.encodedCount(payloadCount) + 1 + 86)
        output.append(contentsOf: prefix)
        let payloadStart = output.count
        Base64URL.append(payloadJSON, to: &output)
        var hash = prefixHash
        output.withUnsafeBytes { hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[payloadStart...])) }
        let digest = hash.finalize()
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.signature(for: digest)
        } catch {
            // BoringSSL fails only on allocation failure / broken RNG; no input can cause it.
            fatalError("P-256 signing failed: \(error)")
        }
        output.append(UInt8(ascii: "."))
        Base64URL.append(signature.rawRepresentation, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes `payload` with `JSONEncoder` (no slash escaping, like Apple's payloads) and signs it.
    /// Payloads must not carry `aud`, `exp` or `nbf`: PyJWT would validate them (reference §5.2 step 7).
    public func sign<T: Encodable>(_ payload: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return sign(payloadJSON: try encoder.encode(payload))
    }
}
