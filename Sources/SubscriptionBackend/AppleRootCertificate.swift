import Crypto
import Foundation

/// Apple Root CA - G3, shipped as a resource, checked against the fingerprint Apple publishes
/// before it is trusted: a swapped file must never become a trust anchor.
public enum AppleRootCertificate {
    /// SHA-256 of the DER, as published on https://www.apple.com/certificateauthority/.
    public static let publishedSHA256 = "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"

    /// The certificate's DER bytes, after the fingerprint check.
    public static func der() throws -> [UInt8] {
        // Compiled in (EmbedResources), so a single-file `openstore` needs no bundle beside it.
        guard let pem = EmbeddedResources.data(named: "AppleRootCA-G3.pem") else {
            throw BackendConfigurationError("Apple Root CA - G3 is missing from the backend's resources")
        }
        let der = try RootCertificateFile.der(from: pem)
        let fingerprint = SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined()
        guard fingerprint == publishedSHA256 else {
            throw BackendConfigurationError("the shipped Apple Root CA - G3 has fingerprint \(fingerprint), not Apple's published \(publishedSHA256)")
        }
        return der
    }
}

/// Root certificates as people have them: DER, or PEM with its armour.
public enum RootCertificateFile {
    /// A DER file's bytes as they are, or the first certificate of a PEM file decoded; bad base64 throws.
    public static func der(from data: Data) throws -> [UInt8] {
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("-----BEGIN CERTIFICATE-----") else { return Array(data) }
        let body = text.components(separatedBy: "-----BEGIN CERTIFICATE-----")[1]
            .components(separatedBy: "-----END CERTIFICATE-----")[0]
            .filter { !$0.isWhitespace }
        guard let der = Data(base64Encoded: body) else { throw BackendConfigurationError("PEM certificate body is not base64") }
        return Array(der)
    }
}
