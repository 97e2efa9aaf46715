import Foundation
import StoreEngine
import StoreTestSupport
import StoreModel
import StoreStorage

/// Helpers for the price-increase, message, review-prompt and extension tests.
let dayMs: Int64 = 86_400_000
let world = AppStore.defaultWorld

/// The test catalog with a win-back offer on the yearly plan.
let winBackCatalogJSON = testCatalogJSON.replacingOccurrences(
    of: #""displayPrice" : "39.99","#,
    with: #""winbackOffers" : [ { "displayPrice" : "19.99", "internalID" : "W1", "numberOfPeriods" : 1, "offerID" : "winback.yearly", "paymentMode" : "payUpFront", "referenceName" : "Come back", "subscriptionPeriod" : "P1Y" } ], "displayPrice" : "39.99","#)

func makeWinBackStore(clock: TestClock = TestClock()) async throws -> AppStore {
    let app = try StoreApp(bundleId: testBundle, appAppleId: 1_234_567_890, environment: .sandbox, name: "Test", catalogJSON: winBackCatalogJSON)
    return try await makeStore(clock: clock, apps: [app])
}

extension AppStore {
    /// Buys a plan and returns its transaction.
    func subscribe(_ customer: String, to productId: String = "test.yearly", world: String = AppStore.defaultWorld) async throws -> TransactionPayload {
        try await self.world(world).purchase(PurchaseRequest(bundleId: testBundle, productId: productId, customer: customer)).transaction!.payload
    }

    func advance(days: Int64, plusMs: Int64 = 0, world: String = AppStore.defaultWorld) async throws {
        _ = try await advanceTime(world, byMs: days * dayMs + plusMs)
    }

    /// (type, subtype) of the world's events after `seq`, in order.
    func eventNames(after seq: Int64 = 0, world: String = AppStore.defaultWorld) async throws -> [String] {
        try await self.world(world).events(after: seq).map { event in event.subtype.map { "\(event.type)/\($0)" } ?? event.type }
    }

    func lastEventSeq(world: String = AppStore.defaultWorld) async throws -> Int64 {
        try await self.world(world).events().last?.seq ?? 0
    }

    func status(_ customer: String, world: String = AppStore.defaultWorld) async throws -> SubscriptionStatusItem {
        try await self.world(world).subscriptionStatuses(bundleId: testBundle, customer: customer).first!
    }
}

/// The Server API error code a call fails with, or nil if it succeeds.
func apiCode(_ body: () async throws -> Void) async -> Int64? {
    do {
        try await body()
        return nil
    } catch let error as ServerAPIError {
        return error.code
    } catch {
        return -1
    }
}

/// The store error code a call fails with, or nil if it succeeds.
func storeCode(_ body: () async throws -> Void) async -> String? {
    do {
        try await body()
        return nil
    } catch let error as StoreError {
        return error.code
    } catch {
        return "other: \(error)"
    }
}
