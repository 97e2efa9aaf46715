import Foundation
import SwiftASN1

/// The fixed facts of our certificate chain, shared by the CA that builds it and the verifier
/// that checks it, so the two cannot drift apart (reference §5.4).
public enum CertificateProfile {
    /// Apple's "WWDR" marker, required on the intermediate by `SignedDataVerifier`.
    public static let intermediateMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// Apple's "Receipt Signing" marker, required on the leaf by `SignedDataVerifier`.
    public static let leafMarkerOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    /// 2000-01-01T00:00:00Z: earlier than any date a store world starts at.
    public static let notValidBefore = Date(timeIntervalSince1970: 946_684_800)
    /// 2199-12-31T23:59:59Z: later than any world whose clock was advanced years ahead.
    public static let notValidAfter = Date(timeIntervalSince1970: 7_258_118_399)

    /// The `O` of every subject and issuer name in the chain.
    public static let organization = "OpenStoreKit"
    /// The root's `CN`, in both its subject and issuer names, since the root issues itself.
    public static let rootCommonName = "OpenStoreKit Root CA"
    /// The intermediate's `CN`; the leaf's issuer name must equal the intermediate's subject.
    public static let intermediateCommonName = "OpenStoreKit Intermediate CA"
    /// The leaf's `CN`: the certificate whose key signs every JWS.
    public static let leafCommonName = "OpenStoreKit Store Signing"
}
