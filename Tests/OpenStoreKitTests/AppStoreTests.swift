import Foundation
import OpenStoreKit
import Testing

/// `AppTransaction`, `Message`, `AppStore`'s calls, offer codes and refund requests.
@Suite struct AppStoreTests {
    @Test func appTransactionSharedAndRefresh() async throws {
        try await ClientTestStore.with { store in
            try await OpenStoreKit.withConnection(store.connection("vic", bundle: ClientTestStore.foodTruck)) {
                let shared = try await AppTransaction.shared
                guard case .verified(let app) = shared else { Issue.record("app transaction: \(shared)"); return }
                #expect(app.bundleID == ClientTestStore.foodTruck && app.appVersion == "8.2" && app.originalAppVersion == "8.2")
                #expect(app.environment == .sandbox && app.originalPlatform == .iOS && !app.appTransactionID.isEmpty)
                #expect(app.appID == 1_640_000_002)
                #expect(shared.jwsRepresentation.split(separator: ".").count == 3)

                // The customer bought the app at 7.1 (set on the store): `shared` is cached, `refresh()` asks again.
                try await store.admin(.PUT, "/storekit/v1/apps/\(ClientTestStore.foodTruck)/customers/vic/app-transaction",
                                      ["originalApplicationVersion": "7.1"])
                #expect(try await AppTransaction.shared.payloadValue.originalAppVersion == "8.2")
                #expect(try await AppTransaction.refresh().payloadValue.originalAppVersion == "7.1")
                #expect(try await AppTransaction.shared.payloadValue.originalAppVersion == "7.1")
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func messagesArriveOnceAndDisplayMarksThemShown() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("wes", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let subscribed = try #require(transaction(of: try await plus.purchase()))
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(subscribed.id)/price-increase", ["newPrice": "3.99"])
                var iterator = Message.messages(every: .milliseconds(100)).makeAsyncIterator()
                let message = try #require(await iterator.next())
                #expect(message.reason == .priceIncreaseConsent)
                try await message.display()
                let renewal = try #require(try await plus.subscription?.status.first?.renewalInfo.payloadValue)
                #expect(renewal.priceIncreaseStatus == .pending)
            }
        }
    }

    @Test func syncReviewManageCodesAndRefunds() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/apps/\(ClientTestStore.bundle)/offer-codes",
                                  ["offer": "FREEMONTH", "codes": ["SPRING"]])
            try await OpenStoreKit.withConnection(store.connection("xia", world: world, appVersion: "2.0")) {
                try await AppStore.sync()
                #expect(try await AppStore.requestReview())
                #expect(try await AppStore.requestReview() == false) // never twice for one version

                let manage = try await AppStore.showManageSubscriptions()
                #expect(manage.absoluteString.hasPrefix(store.url.absoluteString + "/store"))

                let redeemed = try await AppStore.redeemOfferCode("SPRING")
                let subscription = try #require(transaction(of: redeemed))
                #expect(subscription.productID == "k.plus" && subscription.offer?.type == .code)
                await #expect { _ = try await AppStore.redeemOfferCode("NOPE") } throws: { error in
                    guard case StoreKitError.systemError(let inner) = error,
                          case OpenStoreKitError.storeRefused(let code, _) = inner else { return false }
                    return code == "invalidOfferCode"
                }

                let guide = try #require(try await Product.products(for: ["k.guide"]).first)
                let bought = try #require(transaction(of: try await guide.purchase()))
                #expect(try await bought.beginRefundRequest(reason: "UNINTENDED_PURCHASE") == .success)
                let requests = try await store.admin(.GET, "/admin/v1/worlds/\(world)/refund-requests")
                #expect((requests["refundRequests"] as? [[String: Any]])?.first?["transactionId"] as? String == String(bought.id))
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(bought.id)/refund")
                await #expect(throws: Transaction.RefundRequestError.failed) { _ = try await bought.beginRefundRequest() }
                #expect(try await Transaction.latest(for: "k.guide")?.payloadValue.revocationDate != nil)
                #expect(await Transaction.currentEntitlement(for: "k.guide") == nil)
            }
        }
    }
}
