import Foundation
@testable import OpenStoreKit
import StoreTestSupport
import Testing

/// StoreKit leaves the app's own purchases out of `Transaction.updates`: the app handles them from
/// `purchase`'s result, and one delivered twice (a consumable counted twice) is a bug in the app's
/// eyes. Purchases made elsewhere, renewals and a refund of the app's own purchase still come.
@Suite struct OwnPurchasesTests {
    @Test(.timeLimit(.minutes(1))) func updatesLeaveOutWhatPurchaseReturned() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let connection = store.connection("own", world: world)
            let listener = TransactionUpdatesTests.Listener(connection)
            defer { listener.stop() }
            try await store.waitForFeeds(1)
            let mine = try await OpenStoreKit.withConnection(connection) { () -> Transaction in
                let seeds = try #require(try await Product.products(for: ["k.seeds"]).first)
                let bought = try #require(transaction(of: try await seeds.purchase()))
                await bought.finish()
                return bought
            }
            try await store.purchaseElsewhere("k.guide", customer: "own", world: world)
            let first = try await listener.first(1)
            #expect(first.map(\.productID) == ["k.guide"])
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(mine.id)/refund", ["reason": 1])
            let both = try await listener.first(2)
            #expect(both[1].id == mine.id && both[1].revocationDate != nil)
            #expect(listener.received.value.count == 2)
        }
    }
}
