import Crypto
import Foundation

/// Legacy (StoreKit 1 style) promotional offer signatures, reference §6.3: so the store can check
/// offers signed by a developer's server with Apple's `PromotionalOfferSignatureCreator`.
///
/// Message: bundleId, keyId, productId, offerId, lowercase appAccountToken, lowercase nonce and
/// the timestamp in milliseconds, joined with U+2063; ECDSA P-256 / SHA-256, DER, standard base64.
public enum PromotionalOfferSignature {
    /// U+2063 INVISIBLE SEPARATOR.
    public static let separator = "\u{2063}"

    /// The exact string that is signed.
    public static func message(
        bundleId: String, keyId: String, productId: String, offerId: String,
        appAccountToken: String, nonce: UUID, timestamp: Int64
    ) -> String {
        [bundleId, keyId, productId, offerId, appAccountToken.lowercased(), nonce.uuidString.lowercased(), String(timestamp)]
            .joined(separator: separator)
    }

    /// Signs like Apple's `create_signature`; returns standard base64 of the DER signature.
    public static func sign(
        privateKey: P256.Signing.PrivateKey, bundleId: String, keyId: String, productId: String,
        offerId: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) throws -> String {
        let text = message(
            bundleId: bundleId, keyId: keyId, productId: productId, offerId: offerId,
            appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        return try privateKey.signature(for: Array(text.utf8)).derRepresentation.base64EncodedString()
    }

    /// Signs with a `.p8` PKCS#8 PEM key.
    public static func sign(
        privateKeyP8: String, bundleId: String, keyId: String, productId: String,
        offerId: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) throws -> String {
        try sign(
            privateKey: P256.Signing.PrivateKey(pemRepresentation: privateKeyP8), bundleId: bundleId, keyId: keyId,
            productId: productId, offerId: offerId, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
    }

    /// True when `signatureBase64` is a valid signature of the offer fields by `publicKey`.
    public static func verify(
        signatureBase64: String, publicKey: P256.Signing.PublicKey, bundleId: String, keyId: String,
        productId: String, offerId: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) -> Bool {
        guard let der = Base64URL.decodeStandard(signatureBase64),
              let signature = try? P256.Signing.ECDSASignature(derRepresentation: der)
        else { return false }
        let text = message(
            bundleId: bundleId, keyId: keyId, productId: productId, offerId: offerId,
            appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        return publicKey.isValidSignature(signature, for: Array(text.utf8))
    }

    /// Verifies with an SPKI PEM public key (as stored in ``APIKey/publicKeyPEM``).
    public static func verify(
        signatureBase64: String, publicKeyPEM: String, bundleId: String, keyId: String,
        productId: String, offerId: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) -> Bool {
        guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: publicKeyPEM) else { return false }
        return verify(
            signatureBase64: signatureBase64, publicKey: publicKey, bundleId: bundleId, keyId: keyId,
            productId: productId, offerId: offerId, appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
    }
}
