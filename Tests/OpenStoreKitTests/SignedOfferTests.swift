import Crypto
import Foundation
import OpenStoreKit
import Testing

/// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)` (iOS 18.2+): the developer's server
/// signs the offer as a compact JWS with its In-App Purchase key, the way Apple documents it
/// ("Generating JWS to sign App Store requests"; Apple's `PromotionalOfferV2SignatureCreator`):
/// header `{alg: ES256, kid, typ: JWT}`, claims `bid`, `iss`, `aud` = "promotional-offer", `iat`,
/// `nonce`, `productId`, `offerIdentifier` and an optional `transactionId`.
@Suite struct SignedOfferTests {
    @Test func aPromotionalOfferSignedAsACompactJWSIsRedeemed() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let key = try await store.store.world(world).createAPIKey(bundleId: ClientTestStore.bundle)
            try await OpenStoreKit.withConnection(store.connection("gus", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let promo = try #require(plus.subscription?.promotionalOffers.first { $0.id == "promo" })
                #expect(promo.price == Decimal(string: "0.99"))
                // A subscriber whose first subscription lapsed is offered the promotion.
                let first = try #require(transaction(of: try await plus.purchase()))
                #expect(first.offer?.type == .introductory)
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(first.id)/expire")

                let jws = try Self.sign(
                    privateKeyP8: key.privateKeyP8, keyID: key.key.keyId, issuerID: key.key.issuerId,
                    claims: ["productId": "k.plus", "offerIdentifier": "promo", "transactionId": String(first.originalID)])
                let result = try await plus.purchase(options: Set(Product.PurchaseOption.promotionalOffer("promo", compactJWS: jws)))
                guard case .success(.verified(let promoted)) = result else {
                    Issue.record("expected a verified purchase, got \(result)")
                    return
                }
                #expect(promoted.productID == "k.plus" && promoted.originalID == first.originalID)
                #expect(promoted.offer?.type == .promotional && promoted.offer?.id == "promo")
                #expect(promoted.offer?.paymentMode == .payAsYouGo)
                #expect(promoted.price == Decimal(string: "0.99") && promoted.currency?.identifier == "USD")
                #expect(try await plus.subscription?.status.first?.transaction.payloadValue.id == promoted.id)

                // The same signed offer again: its nonce was used.
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(promoted.id)/expire")
                await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                    _ = try await plus.purchase(options: Set(Product.PurchaseOption.promotionalOffer("promo", compactJWS: jws)))
                }
                // Signed by a key the store does not know for this app.
                let stranger = P256.Signing.PrivateKey().pemRepresentation
                let forged = try Self.sign(privateKeyP8: stranger, keyID: key.key.keyId, issuerID: key.key.issuerId,
                                           claims: ["productId": "k.plus", "offerIdentifier": "promo"])
                await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                    _ = try await plus.purchase(options: Set(Product.PurchaseOption.promotionalOffer("promo", compactJWS: forged)))
                }
            }
        }
    }

    /// A compact JWS as a developer's server makes it: ES256 over `base64url(header).base64url(claims)`,
    /// the signature as raw r‖s (JWS, RFC 7518 §3.4), `iat` in seconds, a fresh lowercase UUID nonce.
    static func sign(privateKeyP8: String, keyID: String, issuerID: String, claims extra: [String: String]) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyP8)
        var claims: [String: Any] = [
            "bid": ClientTestStore.bundle, "iss": issuerID, "aud": "promotional-offer",
            "iat": Int(Date().timeIntervalSince1970), "nonce": UUID().uuidString.lowercased(),
        ]
        for (name, value) in extra { claims[name] = value }
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": keyID, "typ": "JWT"])
        let input = base64URL(header) + "." + base64URL(try JSONSerialization.data(withJSONObject: claims))
        let signature = try key.signature(for: Data(input.utf8))
        return input + "." + base64URL(signature.rawRepresentation)
    }
}
