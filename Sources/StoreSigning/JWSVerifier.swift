import Crypto
import Foundation
import X509

/// Verifies our JWS the way Apple's `SignedDataVerifier` does with online checks off
/// (reference §5.2), so a JWS we accept is one Apple's libraries accept given our root.
///
/// Checks: `alg` is ES256; `x5c` has exactly 3 entries; `x5c[0]` (leaf) and `x5c[1]`
/// (intermediate) chain to the configured root, whatever `x5c[2]` says; the marker OIDs are
/// present; every certificate is valid at the validation time; the leaf's ES256 signature holds.
public struct JWSVerifier: Sendable {
    /// The only root trusted; whatever `x5c[2]` carries is ignored, as Apple's verifier does.
    public let rootCertificate: Certificate
    private let cache = ChainCache()

    /// Trusts `rootCertificateDER` (the DER Apple's `SignedDataVerifier` takes); invalid DER throws `JWSError.invalidChain`.
    public init(rootCertificateDER: [UInt8]) throws {
        do {
            rootCertificate = try Certificate(derEncoded: rootCertificateDER)
        } catch {
            throw JWSError.invalidChain("root certificate is not valid DER: \(error)")
        }
    }

    /// Verifies `compactJWS` and returns its payload bytes.
    ///
    /// - Parameter validationTime: the instant the chain must be valid at. Default, as in
    ///   Apple's verifier: the payload's `signedDate`, else `receiptCreationDate` (milliseconds),
    ///   else now.
    public func verify(_ compactJWS: String, validationTime: Date? = nil) throws(JWSError) -> [UInt8] {
        var jws = compactJWS
        let result: Result<[UInt8], JWSError> = jws.withUTF8 { utf8 in
            do throws(JWSError) {
                return .success(try verify(bytes: UnsafeRawBufferPointer(utf8), validationTime: validationTime))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Verifies and decodes the payload with `JSONDecoder`.
    public func verifyAndDecode<T: Decodable>(_ type: T.Type, from compactJWS: String) throws -> T {
        let payload = try verify(compactJWS)
        return try JSONDecoder().decode(T.self, from: Data(payload))
    }

    private func verify(bytes: UnsafeRawBufferPointer, validationTime: Date?) throws(JWSError) -> [UInt8] {
        guard let firstDot = bytes.firstIndex(of: UInt8(ascii: ".")) else {
            throw .malformed("expected three dot-separated segments")
        }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[(firstDot + 1)...])
        guard let secondDotInRest = rest.firstIndex(of: UInt8(ascii: ".")),
              !rest[(secondDotInRest + 1)...].contains(UInt8(ascii: "."))
        else { throw .malformed("expected three dot-separated segments") }
        let secondDot = firstDot + 1 + secondDotInRest
        let header = UnsafeRawBufferPointer(rebasing: bytes[..<firstDot])
        let payloadSegment = UnsafeRawBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot])
        let signatureSegment = UnsafeRawBufferPointer(rebasing: bytes[(secondDot + 1)...])

        let entry: ChainCache.HeaderEntry
        if let cached = cache.entry(forHeader: header) {
            entry = cached
        } else {
            entry = try validateHeader(header)
            cache.insert(entry)
        }

        guard let payload = Base64URL.decode(payloadSegment) else {
            throw .malformed("payload segment is not base64url")
        }
        guard let signatureBytes = Base64URL.decode(signatureSegment), signatureBytes.count == 64,
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { throw .invalidSignature }

        var hash = entry.prefixHash
        hash.update(bufferPointer: payloadSegment)
        guard entry.chain.leafKey.isValidSignature(signature, for: hash.finalize()) else {
            throw .invalidSignature
        }

        let date: Date
        if let validationTime {
            date = validationTime
        } else {
            do {
                date = try PayloadDate.validationDate(in: payload) ?? Date()
            } catch {
                throw .malformed("payload is not a JSON object")
            }
        }
        guard entry.chain.isValid(at: date) else {
            throw .invalidChain("certificates are not valid at \(date)")
        }
        return payload
    }

    private struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
    }

    /// Parses the header and validates its chain (or takes it from the chain cache).
    private func validateHeader(_ segment: UnsafeRawBufferPointer) throws(JWSError) -> ChainCache.HeaderEntry {
        guard let json = Base64URL.decode(segment) else { throw .malformed("header segment is not base64url") }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(json)) else {
            throw .malformed("header is not a JSON object with string alg and x5c")
        }
        guard let alg = header.alg else { throw .malformed("header has no alg") }
        guard alg == "ES256" else { throw .unsupportedAlgorithm(alg) }
        guard let x5c = header.x5c, !x5c.isEmpty else { throw .malformed("header has no x5c") }
        guard x5c.count == 3 else { throw .invalidChain("x5c must have exactly 3 certificates, has \(x5c.count)") }

        let key = x5c[0] + "." + x5c[1]
        let chain: ValidatedChain
        if let cached = cache.chain(forKey: key) {
            chain = cached
        } else {
            chain = try ValidatedChain.validate(leafBase64: x5c[0], intermediateBase64: x5c[1], root: rootCertificate)
            cache.insert(chain, forKey: key)
        }
        var hash = SHA256()
        hash.update(bufferPointer: segment)
        hash.update(data: [UInt8(ascii: ".")])
        return ChainCache.HeaderEntry(header: Array(segment), chain: chain, prefixHash: hash)
    }
}
