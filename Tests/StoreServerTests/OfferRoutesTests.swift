import Foundation
import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing

let offerRoutesCatalogJSON = fixtureCatalog("offer-routes")

@Suite(.serialized, .removesTemporaryFolders) struct OfferRoutesTests {
    static let bundle = "com.example.offerroutes"

    func withServer(_ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 43, environment: .sandbox, name: "Offers", catalogJSON: offerRoutesCatalogJSON),
        ], transport: .router, body)
    }

    var purchases: String { "/storekit/v1/apps/\(Self.bundle)/purchases" }

    @Test func signedPromotionalOfferOverHTTP() async throws {
        try await withServer { server in
            let first = try await server.json(.POST, purchases, ["productId": "r.plus", "customer": "ann"])
            let id = try #require((first.json["transaction"] as? [String: Any])?["transactionId"] as? String)
            _ = try await server.store.world(AppStore.defaultWorld).expireSubscription(transactionId: id)
            let key = try await server.store.world(AppStore.defaultWorld).createAPIKey(bundleId: Self.bundle)
            let nonce = UUID()
            let timestamp = Int64(Date().timeIntervalSince1970 * 1000)
            let signature = try PromotionalOfferSignature.sign(
                privateKeyP8: key.privateKeyP8, bundleId: Self.bundle, keyId: key.key.keyId, productId: "r.plus", offerId: "promo",
                appAccountToken: "", nonce: nonce, timestamp: timestamp)
            let offer: [String: Any] = ["offerID": "promo", "keyID": key.key.keyId, "nonce": nonce.uuidString.lowercased(),
                                        "signature": signature, "timestamp": timestamp]
            let answer = try await server.json(.POST, purchases, ["productId": "r.plus", "customer": "ann", "promotionalOffer": offer])
            #expect(answer.status == 200)
            #expect((answer.json["transaction"] as? [String: Any])?["offerIdentifier"] as? String == "promo")

            // Replayed: Apple's error name, 400.
            _ = try await server.store.world(AppStore.defaultWorld).expireSubscription(
                transactionId: try #require((answer.json["transaction"] as? [String: Any])?["transactionId"] as? String))
            let replay = try await server.json(.POST, purchases, ["productId": "r.plus", "customer": "ann", "promotionalOffer": offer])
            #expect(replay.status == 422 && replay.json["error"] as? String == "invalidOfferSignature")

            let unsigned = try await server.json(.POST, purchases, ["productId": "r.plus", "customer": "ann", "promotionalOfferID": "promo"])
            #expect(unsigned.status == 422 && unsigned.json["error"] as? String == "missingOfferParameters")
            let unknown = try await server.json(.POST, purchases, ["productId": "r.plus", "customer": "ann", "promotionalOfferID": "nope", "testing": true])
            #expect(unknown.status == 422 && unknown.json["error"] as? String == "invalidOfferIdentifier")
            let winBack = try await server.json(.POST, purchases, ["productId": "r.plus", "customer": "ann", "winBackOfferID": "back"])
            #expect(winBack.status == 200)
            #expect((winBack.json["transaction"] as? [String: Any])?["offerType"] as? Int == 4)
        }
    }

    @Test func offerCodesAreMadeListedAndRedeemedOverHTTP() async throws {
        try await withServer { server in
            let admin = "/admin/v1/worlds/default/apps/\(Self.bundle)/offer-codes"
            let made = try await server.json(.POST, admin, ["offer": "FREEMONTH", "codes": ["HELLO"], "maxRedemptions": 1])
            #expect(made.status == 201)
            #expect((made.json["codes"] as? [[String: Any]])?.first?["code"] as? String == "HELLO")
            let bad = try await server.json(.POST, admin, ["offer": "NOPE", "count": 2])
            #expect(bad.status == 404)

            let redeem = "/storekit/v1/apps/\(Self.bundle)/customers/bo/redeem-code"
            let redeemed = try await server.json(.POST, redeem, ["code": "hello"])
            #expect(redeemed.status == 200)
            #expect((redeemed.json["transaction"] as? [String: Any])?["offerType"] as? Int == 3)
            let again = try await server.json(.POST, "/storekit/v1/apps/\(Self.bundle)/customers/cy/redeem-code", ["code": "HELLO"])
            #expect(again.status == 422 && again.json["error"] as? String == "offerCodeRedemptionLimitReached")
            let unknown = try await server.json(.POST, "/storekit/v1/apps/\(Self.bundle)/customers/cy/redeem-code", ["code": "XYZ"])
            #expect(unknown.status == 422 && unknown.json["error"] as? String == "invalidOfferCode")

            let listed = try await server.request(.GET, admin)
            #expect((listed.json["codes"] as? [[String: Any]])?.first?["redemptions"] as? Int == 1)
        }
    }

    @Test func familyRoutesShareAndRevoke() async throws {
        try await withServer { server in
            let family = { (customer: String) in "/admin/v1/worlds/default/customers/\(customer)/family" }
            #expect(try await server.json(.PUT, family("mom"), ["group": "fam"]).status == 200)
            let joined = try await server.json(.PUT, family("son"), ["group": "fam"])
            #expect(joined.json["members"] as? [String] == ["mom", "son"])
            let bought = try await server.json(.POST, purchases, ["productId": "r.book", "customer": "mom"])
            let id = try #require((bought.json["transaction"] as? [String: Any])?["transactionId"] as? String)

            let sonEntitlements = "/storekit/v1/apps/\(Self.bundle)/customers/son/entitlements"
            #expect((try await server.request(.GET, sonEntitlements).json["signedTransactions"] as? [String])?.count == 1)
            _ = try await server.store.world(AppStore.defaultWorld).refund(transactionId: id)
            #expect((try await server.request(.GET, sonEntitlements).json["signedTransactions"] as? [String])?.count == 0)

            let left = try await server.request(.DELETE, family("son"))
            #expect(left.status == 200 && left.json["group"] == nil)
        }
    }
}
