import Foundation
import OpenStoreKit
import StoreTestSupport
import Testing

/// `Product.SubscriptionInfo.Status.updates` and `Storefront.updates` (issue #28) against a live
/// store: each yields when what it watches changes, not before.
@Suite struct StatusAndStorefrontUpdatesTests {
    /// Collects what a sequence yields, from a task of its own.
    final class Collector<Element: Sendable>: Sendable {
        let items = Locked<[Element]>([])
        func until(_ condition: @Sendable ([Element]) -> Bool) async throws -> [Element] {
            while !condition(items.value) { try await Task.sleep(for: .milliseconds(20)) }
            return items.value
        }
    }

    @Test(.timeLimit(.minutes(1))) func statusUpdatesFollowPurchaseRenewalAutoRenewExpiryAndRefund() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("stu", world: world)) {
                let plus = try #require(try await Product.products(for: ["k.plus"]).first)
                let statuses = Collector<Product.SubscriptionInfo.Status>()
                let listener = Task {
                    for await status in Product.SubscriptionInfo.Status.updates { statuses.items.value.append(status) }
                }
                defer { listener.cancel() }
                try await store.waitForFeeds(1)

                // A purchase: subscribed.
                let bought = try #require(transaction(of: try await plus.purchase()))
                var seen = try await statuses.until { $0.contains { $0.transaction.unsafePayloadValue.id == bought.id } }
                #expect(seen.last?.state == .subscribed)

                // A renewal (pushed as a transaction): the renewal's status.
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "P8D"])
                seen = try await statuses.until { $0.contains { $0.transaction.unsafePayloadValue.reason == .renewal } }
                let renewal = try #require(seen.last { $0.transaction.unsafePayloadValue.reason == .renewal })
                #expect(renewal.state == .subscribed && renewal.transaction.unsafePayloadValue.originalID == bought.originalID)

                // Auto-renew turned off (no transaction changes): the status says so.
                let renewalID = renewal.transaction.unsafePayloadValue.id
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(renewalID)/auto-renew", ["enabled": false])
                seen = try await statuses.until { $0.contains { !$0.renewalInfo.unsafePayloadValue.willAutoRenew } }
                #expect(seen.last?.state == .subscribed)

                // Expiry (no transaction either): expired.
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": "P35D"])
                seen = try await statuses.until { $0.last?.state == .expired }
                #expect(seen.last?.renewalInfo.unsafePayloadValue.expirationReason == .autoRenewDisabled)

                // A refund of the last period: its revocation reaches the status. (The store keeps
                // an already expired subscription `.expired`; a live one becomes `.revoked`, as
                // the compat fixtures' Food Truck test sees.)
                try await store.admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(renewalID)/refund", ["reason": 0])
                seen = try await statuses.until { $0.last?.transaction.unsafePayloadValue.revocationDate != nil }
                // Each change once: no two neighbours alike.
                let states = seen.map {
                    "\($0.state)/\($0.transaction.unsafePayloadValue.id)/\($0.renewalInfo.unsafePayloadValue.willAutoRenew)/\($0.transaction.unsafePayloadValue.revocationDate != nil)"
                }
                #expect(zip(states, states.dropFirst()).allSatisfy { $0 != $1 })
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func storefrontUpdatesYieldWhenTheAccountsStorefrontChanges() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            try await OpenStoreKit.withConnection(store.connection("sasha", world: world, storefront: "USA")) {
                try await OpenStoreKit.connection().connect()
                let fronts = Collector<Storefront>()
                let listener = Task { for await front in Storefront.updates { fronts.items.value.append(front) } }
                defer { listener.cancel() }
                // Once the feed is open the starting point is read: one change is pushed.
                try await store.waitForFeeds(1)
                try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/sasha", ["storefront": "FRA"])
                let first = try #require(try await fronts.until { !$0.isEmpty }.first)
                #expect(first.countryCode == "FRA" && first.currency?.identifier == "EUR")
                #expect(await Storefront.current?.countryCode == "FRA")
                // Back to where it started: yielded again.
                try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/sasha", ["storefront": "USA"])
                #expect(try await fronts.until { $0.count == 2 }.map(\.countryCode) == ["FRA", "USA"])
            }
        }
    }
}
