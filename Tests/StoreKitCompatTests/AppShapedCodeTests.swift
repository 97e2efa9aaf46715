import Foundation
import StoreKit
import StoreKitCompatFixtures
import Testing

/// App-shaped StoreKit 2 code (Tests/StoreKitCompatFixtures, each file `import StoreKit` and
/// nothing changed from how an app writes it) run against a live store: list, buy, see the
/// entitlement, renew by advancing the world's clock and see the renewal arrive on the app's
/// update listener, refund and see the revocation. One test at a time: the fixtures use the
/// process-wide configuration, as an app does.
@Suite(.serialized) struct AppShapedCodeTests {
    static let pass = "com.example.backyardbirds.pass.individual"
    static let pellets = "com.example.backyardbirds.pellets"
    static let backyardBirdsProducts = [
        "com.example.backyardbirds.pellets", "com.example.backyardbirds.sunflowerseeds", "com.example.backyardbirds.nectar",
        "com.example.backyardbirds.suetcake", "com.example.backyardbirds.mealworms", "com.example.backyardbirds.feastbundle",
        "com.example.backyardbirds.pass.premium", "com.example.backyardbirds.pass.family", "com.example.backyardbirds.pass.individual",
    ]

    @Test(.timeLimit(.minutes(2))) func skDemoStyleStore() async throws { try await Self.skDemoStyleStoreRun() }

    @MainActor static func skDemoStyleStoreRun() async throws {
        try await CompatTestStore.with { server in
            let world = try await server.makeWorld()
            server.configureApp(CompatTestStore.backyardBirds, customer: "sk-demo", world: world)
            let store = Store(productIDs: Self.backyardBirdsProducts)
            defer { store.stop() }

            // Lists, sorted by type and price, as the app's init asks.
            try await eventually { store.consumables.count == 6 && store.subscriptions.count == 3 }
            #expect(store.nonConsumables.isEmpty && store.nonRenewables.isEmpty)
            #expect(store.consumables.map(\.price) == store.consumables.map(\.price).sorted())
            try await server.waitForFeeds(1)

            // Buys: the entitlement and the group status follow.
            let pass = try #require(store.subscriptions.first { $0.id == Self.pass })
            let bought = try #require(try await store.purchase(pass))
            #expect(bought.productID == Self.pass && bought.appAccountToken != nil)
            #expect(try await store.isPurchased(pass))
            #expect(store.subscriptionGroupStatus == .subscribed)
            let pellets = try #require(store.consumables.first { $0.id == Self.pellets })
            _ = try await store.purchase(pellets)
            #expect(store.consumableCounts[Self.pellets] == 1)

            // Renews: the renewal arrives on the listener started in init.
            try await server.advance(world, "P32D")
            try await eventually { store.deliveredUpdates.contains { $0.productID == Self.pass && $0.reason == .renewal } }
            let renewal = try #require(store.deliveredUpdates.last { $0.productID == Self.pass && $0.reason == .renewal })
            #expect(renewal.originalID == bought.originalID && renewal.id != bought.id)
            #expect(try await store.isPurchased(pass))

            // Refunds: the revocation arrives, and the entitlement goes.
            try await server.refund(world, transaction: renewal.id)
            try await eventually { store.deliveredUpdates.contains { $0.id == renewal.id && $0.revocationDate != nil } }
            try await eventually { store.purchasedSubscriptions.isEmpty && store.subscriptionGroupStatus == .revoked }
            #expect(!(try await store.isPurchased(pass)))
        }
    }

    @Test(.timeLimit(.minutes(2))) func foodTruckStyleStoreActorWithStatusUpdates() async throws { try await Self.foodTruckStyleStoreActorWithStatusUpdatesRun() }

    @MainActor static func foodTruckStyleStoreActorWithStatusUpdatesRun() async throws {
        try await CompatTestStore.with { server in
            let world = try await server.makeWorld()
            server.configureApp(CompatTestStore.foodTruck, customer: "food-truck", world: world)
            let store = await StoreActor()
            let subscriptions = store.subscriptionController
            let history = store.productController
            try await subscriptions.loadSubscriptions()
            await history.load()
            #expect(subscriptions.subscriptions.map(\.id) == [StoreActor.socialFeedMonthlyID, StoreActor.socialFeedYearlyID])
            #expect(subscriptions.entitledSubscriptionID == nil && !history.isEntitled)
            // Transaction.updates and Status.updates both listening.
            try await server.waitForFeeds(2)

            // Buys the non-consumable through the product controller.
            #expect(try await history.purchase(using: store))
            #expect(history.isEntitled)

            // Buys the monthly subscription: Status.updates reports it subscribed.
            let monthly = try #require(subscriptions.subscriptions.first)
            try await store.purchase(monthly)
            try await eventually { subscriptions.statusHistory.contains { $0.state == .subscribed } }
            #expect(subscriptions.entitledSubscriptionID == StoreActor.socialFeedMonthlyID)
            #expect(subscriptions.renewalState == .subscribed)
            let first = try #require(subscriptions.statusHistory.last?.transaction.unsafePayloadValue)

            // Renews: a new status with the renewal's transaction.
            try await server.advance(world, "P32D")
            try await eventually {
                subscriptions.statusHistory.contains { $0.transaction.unsafePayloadValue.reason == .renewal }
            }
            let renewal = try #require(subscriptions.statusHistory.last { $0.transaction.unsafePayloadValue.reason == .renewal })
            #expect(renewal.state == .subscribed && renewal.transaction.unsafePayloadValue.originalID == first.originalID)
            try await eventually { subscriptions.transactionHistory.contains { $0.reason == .renewal } }

            // Refunds: Status.updates reports it revoked, and the controller drops the entitlement.
            try await server.refund(world, transaction: renewal.transaction.unsafePayloadValue.id)
            try await eventually { subscriptions.statusHistory.last?.state == .revoked }
            #expect(subscriptions.entitledSubscriptionID == nil && subscriptions.renewalState == .revoked)
            await store.stop()
        }
    }

    @Test(.timeLimit(.minutes(2))) func observableManagerWithEntitlementsAndSync() async throws { try await Self.observableManagerWithEntitlementsAndSyncRun() }

    @MainActor static func observableManagerWithEntitlementsAndSyncRun() async throws {
        try await CompatTestStore.with { server in
            let world = try await server.makeWorld()
            server.configureApp(CompatTestStore.foodTruck, customer: "observable", world: world)
            let manager = PurchaseManager(productIDs: [StoreActor.annualHistoryID, StoreActor.socialFeedYearlyID])
            defer { manager.stop() }
            try await manager.loadProducts()
            #expect(Set(manager.products.map(\.id)) == [StoreActor.annualHistoryID, StoreActor.socialFeedYearlyID])
            await manager.updatePurchasedProducts()
            #expect(!manager.hasUnlockedPro)
            try await server.waitForFeeds(1)

            // Bought here: the entitlement shows.
            let yearly = try #require(manager.products.first { $0.id == StoreActor.socialFeedYearlyID })
            try await manager.purchase(yearly)
            #expect(manager.purchasedProductIDs == [StoreActor.socialFeedYearlyID])

            // Bought on another device: the listener hears of it; a restore also shows it.
            try await server.purchaseElsewhere(StoreActor.annualHistoryID, bundle: CompatTestStore.foodTruck, customer: "observable", world: world)
            try await eventually { manager.purchasedProductIDs.contains(StoreActor.annualHistoryID) }
            try await manager.restorePurchases()
            #expect(manager.purchasedProductIDs == [StoreActor.annualHistoryID, StoreActor.socialFeedYearlyID])

            // Renews a year on, then a refund takes the subscription away.
            let before = manager.updateCount
            try await server.advance(world, "400d")
            try await eventually { manager.updateCount > before }
            var latest: StoreKit.Transaction?
            for await result in StoreKit.Transaction.currentEntitlements(for: StoreActor.socialFeedYearlyID) { latest = try result.payloadValue }
            let renewal = try #require(latest)
            #expect(renewal.reason == .renewal)
            try await server.refund(world, transaction: renewal.id)
            try await eventually { !manager.purchasedProductIDs.contains(StoreActor.socialFeedYearlyID) }
            #expect(manager.purchasedProductIDs == [StoreActor.annualHistoryID])
        }
    }

    @Test(.timeLimit(.minutes(2))) func periodsUnitsAndStatesFormatted() async throws { try await Self.periodsUnitsAndStatesFormattedRun() }

    @MainActor static func periodsUnitsAndStatesFormattedRun() async throws {
        try await CompatTestStore.with { server in
            let world = try await server.makeWorld()
            server.configureApp(CompatTestStore.backyardBirds, customer: "formatting", world: world)
            let products = try await Product.products(for: [Self.pass, Self.pellets])
            let pass = try #require(products.first { $0.id == Self.pass })
            let pellets = try #require(products.first { $0.id == Self.pellets })
            #expect(SubscriptionText.period(of: pass) == "1 month")
            #expect(SubscriptionText.pricePerUnit(of: pass) == "\(pass.displayPrice) / month")
            #expect(SubscriptionText.unitName(of: pass) == "Month")
            #expect(SubscriptionText.period(of: pellets) == nil)
            if let offer = pass.subscription?.introductoryOffer {
                let text = try #require(SubscriptionText.introductoryOffer(of: pass))
                #expect(text.contains(offer.period.formatted(pass.subscriptionPeriodFormatStyle)))
            }
            _ = try await pass.purchase()
            let status = try #require(try await pass.subscription?.status.first)
            #expect(SubscriptionText.state(of: status).hasPrefix("Subscribed — renews on "))
        }
    }

    @Test(.timeLimit(.minutes(2))) func storeKitQualifiedNamesAndFoundationFromStoreKit() async throws { try await Self.storeKitQualifiedNamesAndFoundationFromStoreKitRun() }

    @MainActor static func storeKitQualifiedNamesAndFoundationFromStoreKitRun() async throws {
        try await CompatTestStore.with { server in
            let world = try await server.makeWorld()
            server.configureApp(CompatTestStore.foodTruck, customer: "qualified", world: world)
            let user = UUID()
            let bought = try #require(try await QualifiedStoreKit.buy(StoreActor.socialFeedMonthlyID, for: user))
            #expect(bought.appAccountToken == user)
            let summaries = await QualifiedStoreKit.summaries()
            #expect(summaries.map(\.productID) == [StoreActor.socialFeedMonthlyID])
            #expect(summaries.first?.willAutoRenew == true && summaries.first?.accountToken == user)
            let request = try QualifiedStoreKit.serverRequest(for: bought, endpoint: URL(string: "https://example.com/api")!)
            #expect(request.url?.absoluteString == "https://example.com/api/transactions" && request.httpMethod == "POST")
            let body = try #require(request.httpBody)
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(json["signedTransaction"] as? String == bought.jwsRepresentation)
            let app = try #require(try await QualifiedStoreKit.restore())
            #expect(app.bundleID == CompatTestStore.foodTruck)
            #expect(await QualifiedStoreKit.storefrontCountry() == "USA")
        }
    }
}
