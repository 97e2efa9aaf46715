import Foundation
import StoreKit
import StoreKitTest
import Testing

/// The app's store logic tested with `SKTestSession` in Swift Testing, the way Xcode users write
/// it. These tests run in parallel: each session is a store of its own.
@MainActor
@Suite(.timeLimit(.minutes(2))) struct GardenStoreTests {
    let session: SKTestSession

    init() throws {
        session = try SKTestSession(configurationFileNamed: "Garden")
        session.disableDialogs = true
        session.clearTransactions()
    }

    @Test func productsLoadCheapestFirst() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        #expect(store.products.map(\.id) == ["garden.seeds", "garden.monthly", "garden.guide", "garden.yearly"])
    }

    @Test func buyingTheGuideUnlocksIt() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        let guide = try #require(store.products.first { $0.id == "garden.guide" })
        try await store.purchase(guide)
        #expect(store.ownsGuide)
    }

    @Test func aRefundLocksTheGuideAgain() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        let guide = try #require(store.products.first { $0.id == "garden.guide" })
        let bought = try #require(try await store.purchase(guide))
        try session.refundTransaction(identifier: Int(bought.id))
        await store.refreshEntitlements()
        #expect(!store.ownsGuide)
    }

    @Test func aMembershipBoughtElsewhereArrivesThroughUpdates() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        try await session.buyProduct(identifier: "garden.monthly")
        await store.refreshEntitlements()
        #expect(store.membership?.id == "garden.monthly")
        #expect(try await store.membershipState() == .subscribed)
        try session.expireSubscription(productIdentifier: "garden.monthly")
        await store.refreshEntitlements()
        #expect(store.membership == nil)
        #expect(try await store.membershipState() == .expired)
    }

    @Test func aMembershipRenewsThroughAYear() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        let monthly = try #require(store.products.first { $0.id == "garden.monthly" })
        let bought = try #require(try await store.purchase(monthly))
        try session.advanceTime(by: 365 * 86_400)
        await store.refreshEntitlements()
        #expect(store.membership?.id == "garden.monthly")
        let current = try #require(try await Transaction.currentEntitlement(for: "garden.monthly")?.payloadValue)
        #expect(current.originalID == bought.id && current.id != bought.id)
    }

    @Test func seedsAreCountedOncePerPurchase() async throws {
        let store = GardenStore()
        try await store.loadProducts()
        let seeds = try #require(store.products.first { $0.id == "garden.seeds" })
        try await store.purchase(seeds)
        try await store.purchase(seeds)
        #expect(store.seedPackets == 2)
        #expect(await { var n = 0; for await _ in Transaction.unfinished { n += 1 }; return n }() == 0)
    }
}
