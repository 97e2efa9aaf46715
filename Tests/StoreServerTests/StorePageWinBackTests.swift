import AsyncHTTPClient
import Foundation
import NIOCore
import StoreEngine
import StoreModel
import StoreTestSupport
import StoreViews
import Testing

/// Win-back offers in `SubscriptionStoreView` (issue 16 item 11), against Apple's documentation:
/// - "StoreKit views automatically support displaying pricing details in the SubscriptionStoreView
///   for all subscription offers" (Merchandising win-back offers in your app,
///   https://developer.apple.com/documentation/storekit/merchandising-win-back-offers-in-your-app);
/// - `eligibleWinBackOfferIDs`: "sorted with the best offers first"; grace period and billing retry
///   are not eligible (https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/eligiblewinbackofferids);
/// - a purchase applies it as `Product.PurchaseOption.winBackOffer(_:)` does.
@Suite(.serialized, .removesTemporaryFolders) struct StorePageWinBackTests {
    static let bundle = DemoCatalogs.backyardBirdsBundleID
    static let premium = "com.example.backyardbirds.pass.premium"
    static let family = "com.example.backyardbirds.pass.family"
    static let welcomeBack = "com.example.backyardbirds.pass.premium.welcomeback"
    static let pages = [
        StorePage(id: "pass", bundleId: bundle, title: "Pass") { AnyView(SubscriptionStoreView(groupID: "BB0PASS1")) },
    ]

    func withServer(_ body: (LiveServer, HTTPClient) async throws -> Void) async throws {
        try await withStorePages([
            try StoreApp(bundleId: Self.bundle, appAppleId: 46, environment: .sandbox, name: "Birds", catalogJSON: DemoCatalogs.backyardBirds),
        ], Self.pages, body)
    }

    func page(_ server: LiveServer) async throws -> String {
        let answer = try await server.request(.GET, "/store/pass?customer=wren")
        #expect(answer.status == 200)
        return String(decoding: answer.body, as: UTF8.self)
    }

    /// The offer line shown under a plan of the picker, by product.
    func offerLine(_ html: String, _ productID: String) -> String? {
        guard let start = html.range(of: "data-product-id=\"\(productID)\""),
              let end = html[start.upperBound...].range(of: "</label>") else { return nil }
        let plan = html[start.upperBound..<end.lowerBound]
        return plan.firstMatch(of: /class="sk-plan-offer"[^>]*>([^<]*)</).map { String($0.1) }
    }

    @Test func aLapsedSubscriberIsShownTheWinBackOfferAndThePageRedeemsIt() async throws {
        try await withServer { server, client in
            let first = try await server.store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: Self.bundle, productId: Self.premium, customer: "wren"), offer: nil)
            let id = try #require(first.transaction?.payload.transactionId)
            var html = try await page(server)
            #expect(!html.contains("data-offer-type=\"winBack\""), "an active subscriber is not offered a win-back")

            _ = try await server.store.world(AppStore.defaultWorld).expireSubscription(transactionId: id)
            html = try await page(server)
            #expect(html.contains("data-offer-type=\"winBack\""))
            #expect(offerLine(html, Self.premium) == "$5.99 per month for 2 months", "the catalog's Welcome Back Birder offer")
            #expect(offerLine(html, Self.family) == nil, "Family has no win-back offer, and the intro offer is used up")
            #expect(html.contains("Start Offer"), "the subscribe button names the offer")

            var request = HTTPClientRequest(url: server.base + "/store/pass/actions?customer=wren&world=default")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: "action=subscribe&product=\(Self.premium)"))
            let answer = try await client.execute(request, timeout: .seconds(30))
            #expect(answer.status == .seeOther)
            #expect(answer.headers.first(name: "X-OpenStore-Result") == "purchased")
            let all = try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: "wren", scope: .all)
            let back = try #require(all.map(\.payload).max { $0.purchaseDate < $1.purchaseDate })
            #expect(back.offerType == .winBack && back.offerIdentifier == Self.welcomeBack)
            #expect(back.price == 5990, "the offer's price, not the plan's")
            #expect(back.originalTransactionId == first.transaction?.payload.originalTransactionId)

            html = try await page(server)
            #expect(!html.contains("data-offer-type=\"winBack\""), "subscribed again: no win-back offer")
        }
    }
}
