import Foundation
import OpenStoreKit
import StoreTestSupport
import Testing

/// The StoreKit 2 calls issue #28 added, with StoreKit's signatures, against a live store: the
/// UI calls' headless behaviour, `signedDate`, `canMakePayments`, `PurchaseIntent`, and the
/// purchase options `promotionalOffer(offerID:signature:)` and `onStorefrontChange`.
@Suite struct HeadlessAPITests {
    @Test(.timeLimit(.minutes(1))) func uiCallsCompileWithTheirScenesAndActHeadlessly() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("ula", world: world)) {
                let scene = UIWindowScene()
                try await AppStore.showManageSubscriptions(in: scene)
                try await AppStore.showManageSubscriptions(in: scene, subscriptionGroupID: "G1")
                try await AppStore.presentOfferCodeRedeemSheet(in: scene)
                let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                let bought = try #require(transaction(of: try await guide.purchase(confirmIn: scene)))
                #expect(try await bought.beginRefundRequest(in: scene) == .success)
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)
                let other = try #require(transaction(of: try await seeds.purchase()))
                #expect(try await Transaction.beginRefundRequest(for: other.id, in: scene) == .success)
                #expect(AppStore.canMakePayments)
                #expect(AppStore.deviceVerificationID == nil)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func verificationResultsCarryTheirSignedDate() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("sid", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                guard case .success(let result) = try await plus.purchase() else {
                    Issue.record("purchase did not succeed")
                    return
                }
                #expect(result.signedDate == result.unsafePayloadValue.signedDate)
                let status = try #require(try await plus.subscription?.status.first)
                #expect(status.renewalInfo.signedDate == status.renewalInfo.unsafePayloadValue.signedDate)
                let app = try await AppTransaction.shared
                #expect(app.signedDate == app.unsafePayloadValue.signedDate)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func purchaseIntentsWaitUntilCancelled() async throws {
        let listener = Task {
            var count = 0
            for await _ in PurchaseIntent.intents { count += 1 }
            return count
        }
        listener.cancel()
        #expect(await listener.value == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aPromotionalOfferSignatureValueIsRedeemed() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("sig", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let first = try #require(transaction(of: try await plus.purchase()))
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(first.id)/expire")
                let signed = try await store.promotionalOfferV1(product: "k.plus", offer: "promo", world: world)
                let signature = Product.SubscriptionOffer.Signature(
                    keyID: signed.keyID, nonce: signed.nonce, timestamp: signed.timestamp, signature: signed.signature)
                let promoted = try #require(transaction(of: try await plus.purchase(options: [.promotionalOffer(offerID: "promo", signature: signature)])))
                #expect(promoted.offer?.type == .promotional && promoted.offer?.id == "promo")
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func onStorefrontChangeDecidesWhetherAPurchaseGoesOn() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("sfc", world: world, storefront: "USA")) {
                try await OpenStoreKit.connection().connect()
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)
                #expect(seeds.currencyCode == "USD")
                // The account moves to France after the product was listed.
                try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/sfc", ["storefront": "FRA"])
                let asked = Locked<[String]>([])
                await #expect(throws: Product.PurchaseError.productUnavailable) {
                    try await seeds.purchase(options: [.onStorefrontChange { front in asked.value.append(front.countryCode); return false }])
                }
                #expect(asked.value == ["FRA"])
                let bought = transaction(of: try await seeds.purchase(options: [.onStorefrontChange { _ in true }]))
                #expect(bought?.storefront.countryCode == "FRA")
            }
        }
    }
}
