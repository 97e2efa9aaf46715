import Foundation

/// StoreKit's `VerificationResult`: signed data together with the verdict on its signature.
/// The client library verifies locally (the chain to the pinned root, ES256, bundle ID and
/// environment); `.unverified` still carries the decoded value so an app can log or inspect it.
public enum VerificationResult<SignedType: Sendable>: Sendable {
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    case verified(SignedType)

    /// Why signed data failed verification. StoreKit's cases.
    public enum VerificationError: Error, Sendable, Hashable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }

    /// The value if it verified; throws the `VerificationError` otherwise.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The value whether or not it verified. Use only where the verdict does not matter.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

/// Signed values that keep the compact JWS they were decoded from, so a `VerificationResult`
/// can hand it back (`jwsRepresentation`) for a server to verify again.
public protocol JWSRepresentable: Sendable {
    var jwsRepresentation: String { get }
}

extension VerificationResult where SignedType: JWSRepresentable {
    /// The compact JWS (`header.payload.signature`) as the store signed it.
    public var jwsRepresentation: String { unsafePayloadValue.jwsRepresentation }
    /// The decoded JOSE header.
    public var headerData: Data { JWSSegments(jwsRepresentation).decoded(0) }
    /// The decoded payload JSON.
    public var payloadData: Data { JWSSegments(jwsRepresentation).decoded(1) }
    /// The raw ES256 signature (r ‖ s, 64 bytes).
    public var signatureData: Data { JWSSegments(jwsRepresentation).decoded(2) }
    /// The bytes the signature covers: `header.payload`, as ASCII.
    public var signedData: Data { JWSSegments(jwsRepresentation).signingInput }
}

extension VerificationResult where SignedType == Transaction {
    /// When the store signed the transaction.
    public var signedDate: Date { unsafePayloadValue.signedDate }
}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// When the store signed the renewal info.
    public var signedDate: Date { unsafePayloadValue.signedDate }
}

extension VerificationResult where SignedType == AppTransaction {
    /// When the store signed the app transaction.
    public var signedDate: Date { unsafePayloadValue.signedDate }
}

/// The three segments of a compact JWS.
struct JWSSegments {
    let parts: [Substring]
    init(_ jws: String) { parts = jws.split(separator: ".", omittingEmptySubsequences: false) }

    func decoded(_ index: Int) -> Data {
        guard index < parts.count else { return Data() }
        return Base64URLText.decode(parts[index]) ?? Data()
    }

    var signingInput: Data {
        guard parts.count == 3 else { return Data() }
        return Data("\(parts[0]).\(parts[1])".utf8)
    }
}

/// base64url without padding, as JWS uses it.
package enum Base64URLText {
    package static func decode(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
