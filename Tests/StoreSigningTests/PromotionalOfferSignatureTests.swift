import Crypto
import Foundation
import Testing
@testable import StoreSigning

/// Promotional offer signatures as Apple's `PromotionalOfferSignatureCreator` makes them (reference §6.3).
struct PromotionalOfferSignatureTests {
    let key = APIKeyFactory.generate(bundleId: "com.example.app")
    let nonce = UUID(uuidString: "A1B2C3D4-E5F6-4711-8899-AABBCCDDEEFF")!
    let timestamp: Int64 = 1_698_148_900_000

    @Test func messageMatchesApplesLayout() {
        let message = PromotionalOfferSignature.message(
            bundleId: "com.example.app", keyId: "KEY123", productId: "pro.monthly", offerId: "WINBACK",
            appAccountToken: "ABC-Token", nonce: nonce, timestamp: timestamp)
        #expect(message == "com.example.app\u{2063}KEY123\u{2063}pro.monthly\u{2063}WINBACK\u{2063}abc-token\u{2063}a1b2c3d4-e5f6-4711-8899-aabbccddeeff\u{2063}1698148900000")
    }

    @Test func roundTripAndRejectionOfEveryModifiedField() throws {
        let signature = try PromotionalOfferSignature.sign(
            privateKeyP8: key.privateKeyP8, bundleId: "com.example.app", keyId: key.key.keyId,
            productId: "pro.monthly", offerId: "WINBACK", appAccountToken: "User-1", nonce: nonce, timestamp: timestamp)
        let der = try #require(Data(base64Encoded: signature))
        #expect(throws: Never.self) { try P256.Signing.ECDSASignature(derRepresentation: der) }

        func check(bundle: String = "com.example.app", keyId: String? = nil, product: String = "pro.monthly",
                   offer: String = "WINBACK", token: String = "User-1", nonce: UUID? = nil, timestamp: Int64? = nil,
                   signature sig: String? = nil) -> Bool {
            PromotionalOfferSignature.verify(
                signatureBase64: sig ?? signature, publicKeyPEM: key.key.publicKeyPEM, bundleId: bundle,
                keyId: keyId ?? key.key.keyId, productId: product, offerId: offer, appAccountToken: token,
                nonce: nonce ?? self.nonce, timestamp: timestamp ?? self.timestamp)
        }
        #expect(check())
        #expect(check(token: "user-1"), "the token is compared lowercased")
        #expect(!check(bundle: "com.example.other"))
        #expect(!check(keyId: "OTHERKEY00"))
        #expect(!check(product: "pro.yearly"))
        #expect(!check(offer: "WINBACK2"))
        #expect(!check(token: "User-2"))
        #expect(!check(nonce: UUID()))
        #expect(!check(timestamp: timestamp + 1))
        #expect(!check(signature: "not base64"))
        #expect(!check(signature: ""))
        let other = APIKeyFactory.generate(bundleId: "com.example.app")
        #expect(!PromotionalOfferSignature.verify(
            signatureBase64: signature, publicKeyPEM: other.key.publicKeyPEM, bundleId: "com.example.app",
            keyId: key.key.keyId, productId: "pro.monthly", offerId: "WINBACK", appAccountToken: "User-1",
            nonce: nonce, timestamp: timestamp))
        #expect(!PromotionalOfferSignature.verify(
            signatureBase64: signature, publicKeyPEM: "garbage", bundleId: "com.example.app",
            keyId: key.key.keyId, productId: "pro.monthly", offerId: "WINBACK", appAccountToken: "User-1",
            nonce: nonce, timestamp: timestamp))
    }

    @Test func emptyAppAccountTokenIsAllowed() throws {
        let privateKey = try P256.Signing.PrivateKey(pemRepresentation: key.privateKeyP8)
        let signature = try PromotionalOfferSignature.sign(
            privateKey: privateKey, bundleId: "b", keyId: "k", productId: "p", offerId: "o",
            appAccountToken: "", nonce: nonce, timestamp: 0)
        #expect(PromotionalOfferSignature.verify(
            signatureBase64: signature, publicKey: privateKey.publicKey, bundleId: "b", keyId: "k", productId: "p",
            offerId: "o", appAccountToken: "", nonce: nonce, timestamp: 0))
    }
}
