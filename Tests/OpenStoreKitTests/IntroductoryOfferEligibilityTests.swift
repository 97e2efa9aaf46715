import Crypto
import Foundation
import OpenStoreKit
import StoreSigning
import StoreTestSupport
import Testing

/// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`: the developer's server
/// signs its verdict with its In-App Purchase key (Apple's `IntroductoryOfferEligibilitySignatureCreator`
/// form); the store checks it as Apple does and applies it, overriding the never-subscribed rule.
@Suite struct IntroductoryOfferEligibilityTests {
    struct Key {
        var privateKeyP8: String, keyID: String, issuerID: String
    }

    static func sign(_ key: Key, allow: Bool, transactionId: String, product: String = "k.plus",
                     nonce: UUID = UUID(), issuedAt: Date = Date()) throws -> String {
        try IntroductoryOfferEligibilitySignature.sign(
            privateKeyP8: key.privateKeyP8, keyId: key.keyID, issuerId: key.issuerID, bundleId: ClientTestStore.bundle,
            productId: product, allowIntroductoryOffer: allow, transactionId: transactionId, nonce: nonce, issuedAt: issuedAt)
    }

    @Test(.timeLimit(.minutes(1))) func theVerdictDecidesTheIntroductoryOffer() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let made = try await store.store.world(world).createAPIKey(bundleId: ClientTestStore.bundle)
            let key = Key(privateKeyP8: made.privateKeyP8, keyID: made.key.keyId, issuerID: made.key.issuerId)
            // A new customer the developer refuses the trial: pays from the start.
            try await OpenStoreKit.withConnection(store.connection("ivy", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                #expect(await plus.subscription?.isEligibleForIntroOffer == true)
                let app = try await AppTransaction.shared.payloadValue
                let refused = try Self.sign(key, allow: false, transactionId: app.appTransactionID)
                let bought = try #require(transaction(of: try await plus.purchase(options: [.introductoryOfferEligibility(compactJWS: refused)])))
                #expect(bought.offer == nil)
            }
            // A lapsed subscriber the developer grants another trial: gets it.
            try await OpenStoreKit.withConnection(store.connection("joe", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let first = try #require(transaction(of: try await plus.purchase()))
                #expect(first.offer?.type == .introductory)
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(first.id)/expire")
                #expect(await plus.subscription?.isEligibleForIntroOffer == false)
                let granted = try Self.sign(key, allow: true, transactionId: String(first.originalID))
                let again = try #require(transaction(of: try await plus.purchase(options: [.introductoryOfferEligibility(compactJWS: granted)])))
                #expect(again.offer?.type == .introductory && again.originalID == first.originalID)

                // The same JWS again: its nonce was used.
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(again.id)/expire")
                await #expect(throws: Product.PurchaseError.invalidOfferSignature) {
                    try await plus.purchase(options: [.introductoryOfferEligibility(compactJWS: granted)])
                }
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aBadVerdictIsRefusedWithStoreKitsError() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let made = try await store.store.world(world).createAPIKey(bundleId: ClientTestStore.bundle)
            let key = Key(privateKeyP8: made.privateKeyP8, keyID: made.key.keyId, issuerID: made.key.issuerId)
            let stranger = Key(privateKeyP8: P256.Signing.PrivateKey().pemRepresentation, keyID: "UNKNOWN123", issuerID: made.key.issuerId)
            try await OpenStoreKit.withConnection(store.connection("kai", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let app = try await AppTransaction.shared.payloadValue
                let cases: [(String, String)] = [
                    ("a key the store does not know", try Self.sign(stranger, allow: true, transactionId: app.appTransactionID)),
                    ("signed 25 hours ago", try Self.sign(key, allow: true, transactionId: app.appTransactionID, issuedAt: Date() - 25 * 3600)),
                    ("for another product", try Self.sign(key, allow: true, transactionId: app.appTransactionID, product: "k.guide")),
                    ("another customer's transaction", try Self.sign(key, allow: true, transactionId: "999999999")),
                    ("not a JWS", "not.a.jws"),
                ]
                for (why, jws) in cases {
                    await #expect(throws: Product.PurchaseError.invalidOfferSignature, "\(why)") {
                        try await plus.purchase(options: [.introductoryOfferEligibility(compactJWS: jws)])
                    }
                }
                // Nothing was bought on the way.
                var owned = 0
                for await _ in Transaction.all { owned += 1 }
                #expect(owned == 0)
            }
        }
    }
}
