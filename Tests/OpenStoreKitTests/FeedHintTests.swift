import Foundation
@testable import StoreEngine
import StoreTestSupport
import Testing

/// The updates feed's live hints: what pushes `Status.updates` and `Storefront.updates` when a
/// change makes no transaction. A purchase or renewal is its own transaction event, with no hint.
@Suite struct FeedHintTests {
    @Test(.timeLimit(.minutes(1))) func autoRenewExpiryAndStorefrontChangesArePushedAsHints() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let engine = store.store
            _ = try await engine.saveCustomer("hal", storefront: "USA", locale: nil, world: world)
            var feed = try await engine.transactionUpdates(bundleId: ClientTestStore.bundle, customer: "hal", after: nil, world: world).makeAsyncIterator()
            _ = try await UpdatesResumeRaceTests.read(&feed)

            // A purchase: a transaction event, and no hint beside it.
            let bought = try await engine.world(world).purchase(.init(bundleId: ClientTestStore.bundle, productId: "k.plus", customer: "hal"))
            let id = try #require(bought.transaction?.payload.transactionId)
            #expect(try await Self.next(&feed) == "transaction \(id)")

            // Auto-renew turned off changes no transaction: a status hint for the subscription.
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(id)/auto-renew", ["enabled": false])
            #expect(try await Self.next(&feed) == "status \(id)")

            // Expiry at the period's end (the scheduler, no transaction): another status hint.
            try await store.admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "P40D"])
            #expect(try await Self.next(&feed) == "status \(id)")

            // The account's storefront: a storefront hint; saving it unchanged sends none.
            try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/hal", ["storefront": "USA"])
            try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/hal", ["storefront": "FRA"])
            #expect(try await Self.next(&feed) == "storefront FRA")
        }
    }

    /// The feed's next entry, in words.
    static func next(_ feed: inout AsyncStream<TransactionUpdate>.AsyncIterator) async throws -> String {
        switch await feed.next() {
        case .transaction(_, _, let signed): "transaction \(signed.payload.transactionId)"
        case .caughtUp(let position): "caughtUp \(position)"
        case .subscriptionStatus(_, let original): "status \(original)"
        case .storefront(let code): "storefront \(code)"
        case nil: throw TestFailure("the feed ended")
        }
    }
}
