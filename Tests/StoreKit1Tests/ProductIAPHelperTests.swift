import StoreKit
import Testing

/// The tutorial-shaped helper (`ProductIAPHelper`) against a live store: products, a purchase
/// posted to `NotificationCenter`, a failure that is not a cancellation posted too, and a
/// restore on a fresh device read through `transaction.original`.
@Suite(.timeLimit(.minutes(2))) struct ProductIAPHelperTests {
    @Test func productsPurchaseFailureAndRestore() async throws {
        try await SK1TestStore.with { store in
            _ = testReceiptFolder
            let world = try await store.makeWorld()
            let folder = store.folder.appendingPathComponent("defaults-\(world)")
            let notifications = AsyncStream.makeStream(of: String.self)
            let observers = [ProductIAPHelper.purchaseNotification, ProductIAPHelper.failureNotification].map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                    guard let text = note.object as? String else { return }
                    notifications.continuation.yield("\(note.name == ProductIAPHelper.purchaseNotification ? "purchased" : "failed") \(text)")
                }
            }
            defer { for observer in observers { NotificationCenter.default.removeObserver(observer) } }
            var posted = notifications.stream.makeAsyncIterator()

            let phone = store.device("lee", world: world)
            let helper = try await OpenStoreKit.withConnection(phone) { () -> ProductIAPHelper in
                ProductIAPHelper(productIds: ["sk1.pro", "sk1.coins"], defaults: try #require(UserDefaults(suiteName: folder.appendingPathComponent("phone").path)))
            }
            let products: [SKProduct] = await OpenStoreKit.withConnection(phone) {
                await withCheckedContinuation { continuation in
                    helper.requestProducts { _, products in continuation.resume(returning: products ?? []) }
                }
            }
            #expect(products.map(\.productIdentifier) == ["sk1.coins", "sk1.pro"] && ProductIAPHelper.canMakePayments())

            await OpenStoreKit.withConnection(phone) { helper.buyProduct(products[1]) }
            #expect(await posted.next() == "purchased sk1.pro")
            #expect(helper.isProductPurchased("sk1.pro"))

            try await store.simulate("purchase", "purchaseNotAllowed", world: world)
            await OpenStoreKit.withConnection(phone) { helper.buyProduct(products[0]) }
            #expect(await posted.next()?.hasPrefix("failed paymentNotAllowed") == true)
            try await store.simulate("purchase", nil, world: world)
            await OpenStoreKit.withConnection(phone) { helper.stop() }

            let tablet = store.device("lee", world: world)
            let fresh = try await OpenStoreKit.withConnection(tablet) { () -> ProductIAPHelper in
                ProductIAPHelper(productIds: ["sk1.pro", "sk1.coins"], defaults: try #require(UserDefaults(suiteName: folder.appendingPathComponent("tablet").path)))
            }
            #expect(!fresh.isProductPurchased("sk1.pro"))
            await OpenStoreKit.withConnection(tablet) { fresh.restorePurchases() }
            #expect(await posted.next() == "purchased sk1.pro")
            #expect(fresh.isProductPurchased("sk1.pro"))
            await OpenStoreKit.withConnection(tablet) { fresh.stop() }
        }
    }
}
