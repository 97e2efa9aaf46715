import Foundation
@testable import StoreEngine
import StoreModel
import StoreStorage
import StoreTestSupport
import Testing

/// A world keeps at most `CustomerMemoryPolicy.maximumCustomers` customers in memory and forgets
/// the least recently used (World+Eviction.swift); issue 15's soak found memory growing by about
/// 1 KB per new customer without bound. Forgetting must change nothing a customer or developer can
/// see: history, ownership (Apple refuses a second purchase of a non-consumable), intro-offer
/// eligibility ("one introductory offer per subscription group"), and renewals, which fire
/// "in time order and exactly once" (DESIGN.md). Real SQLite files (or PostgreSQL databases with
/// OPENSTORE_TEST_ENGINE=postgres), no background scheduler:
/// time moves where the test says.
@Suite(.removesTemporaryFolders) struct CustomerMemoryTests {
    func openStore(bound: Int, idleMs: Int64 = 0, clock: TestClock = TestClock()) async throws -> AppStore {
        let database = try await openTestDatabase(databasePath())
        let store = try await AppStore.open(database: database, apps: [try makeApp()], clock: clock, runScheduler: false)
        store.keepCustomersInMemory(CustomerMemoryPolicy(maximumCustomers: bound, minimumIdleMs: idleMs))
        return store
    }

    func buy(_ store: AppStore, _ customer: String, _ productId: String = "test.seeds") async throws -> TransactionPayload {
        try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: productId, customer: customer)).transaction?.payload)
    }

    func all(_ store: AppStore, _ customer: String) async throws -> [TransactionPayload] {
        try await store.transactions(bundleId: testBundle, customer: customer, scope: .all, world: world).map(\.payload)
    }

    /// Whether the world holds anything of the customer in memory.
    func inMemory(_ store: AppStore, _ customer: String) async throws -> Bool {
        let world = try await store.loadedWorld(AppStore.defaultWorld)
        let key = CustomerKey(bundleId: testBundle, customer: customer)
        let record = await world.customers[customer]
        let history = await world.histories[key]
        let chains = await world.chains.values.filter { $0.customer == customer }
        return record != nil || history != nil || !chains.isEmpty
    }

    /// Enough other customers buy to push `customer` out of a memory of `bound` (it is the least recently used).
    func crowdOut(_ customer: String, of store: AppStore, bound: Int, tag: String) async throws {
        for n in 0..<(bound + 2 * CustomerMemoryPolicy(maximumCustomers: bound).slack + 1) { _ = try await buy(store, "\(tag)-\(n)") }
        #expect(try await !inMemory(store, customer), "\(customer) should have been forgotten")
    }

    @Test func memoryStaysAtTheBoundWhileThreeTimesAsManyCustomersBuy() async throws {
        let bound = 20
        let store = try await openStore(bound: bound)
        var peak = 0
        for n in 0..<(3 * bound) {
            _ = try await buy(store, "c\(n)")
            peak = max(peak, try await store.world(AppStore.defaultWorld).customersInMemory())
        }
        let slack = CustomerMemoryPolicy(maximumCustomers: bound).slack
        #expect(peak <= bound + slack)
        // Every purchase is still there, read back from the database, and reading all of them
        // (each loads its customer again) keeps memory at the bound as well.
        for n in 0..<(3 * bound) {
            #expect(try await all(store, "c\(n)").count == 1)
        }
        #expect(try await store.world(AppStore.defaultWorld).customersInMemory() <= bound + slack)
    }

    @Test func aForgottenCustomerKeepsHistoryOwnershipAndOfferEligibility() async throws {
        let store = try await openStore(bound: 3)
        let owned = try await buy(store, "ana", "test.history")
        let trial = try await buy(store, "ana", "test.monthly")
        #expect(trial.offerDiscountType == .freeTrial)
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd")

        // The same two transactions, as before.
        let history = try await all(store, "ana")
        #expect(Set(history.map(\.transactionId)) == [owned.transactionId, trial.transactionId])
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd2")
        // Apple refuses a second purchase of a non-consumable the customer owns.
        #expect(await storeCode { _ = try await buy(store, "ana", "test.history") } == "alreadyPurchased")
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd3")
        // One introductory offer per group: ana had hers; a new customer still has one.
        #expect(try await store.world(AppStore.defaultWorld).introOfferEligibleGroups(bundleId: testBundle, customer: "ana").isEmpty)
        #expect(try await !store.world(AppStore.defaultWorld).introOfferEligibleGroups(bundleId: testBundle, customer: "newcomer").isEmpty)
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd4")
        // Her subscription is still hers: buying the yearly plan in the same group is a plan
        // change of that subscription (same original transaction), not a second subscription.
        let changed = try await buy(store, "ana", "test.yearly")
        #expect(changed.originalTransactionId == trial.originalTransactionId)
    }

    @Test func theSchedulerRenewsAForgottenSubscriberExactlyOncePerPeriod() async throws {
        let store = try await openStore(bound: 3)
        // Notifications are made only for an app with a notification URL (nothing listens here).
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/notifications", bundleId: testBundle)
        let trial = try await buy(store, "ana", "test.monthly")
        let expiry = try #require(trial.expiresDate)
        // Her copy of the app is on version 2.5: the renewal's notification says so (`data.bundleVersion`).
        _ = try await store.world(AppStore.defaultWorld).updateAppTransaction(bundleId: testBundle, customer: "ana", change: AppTransactionChange(applicationVersion: "2.5"))
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd")
        let before = try await store.lastEventSeq()
        // Past the free week: the chain comes back from the database and renews once.
        _ = try await store.advanceTime(world, byMs: 8 * dayMs)
        var renewals = try await store.events(world: world, after: before).filter { $0.type == "DID_RENEW" && $0.customer == "ana" }
        #expect(renewals.count == 1)
        let renewed = try await store.database.notifications(world: world).filter { $0.type == "DID_RENEW" && $0.customer == "ana" }
        #expect(renewed.count == 1 && renewed.allSatisfy { $0.body.contains(#""bundleVersion":"2.5""#) })
        // Forgotten again, a month later: the next period, once.
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd2")
        _ = try await store.advanceTime(world, byMs: 31 * dayMs)
        renewals = try await store.events(world: world, after: before).filter { $0.type == "DID_RENEW" && $0.customer == "ana" }
        #expect(renewals.count == 2)
        let history = try await all(store, "ana").sorted { $0.purchaseDate < $1.purchaseDate }
        #expect(history.count == 3)
        #expect(Set(history.map(\.originalTransactionId)) == [trial.originalTransactionId])
        // Each period starts where the last ended: none twice, none missing.
        #expect(history[1].purchaseDate == expiry)
        #expect(history[2].purchaseDate == history[1].expiresDate)
        let status = try await store.status("ana")
        #expect(status.status == .active)
        #expect(status.transaction.payload.transactionId == history[2].transactionId)
    }

    @Test func forgettingWhilePurchasesRunConcurrentlyLosesNothing() async throws {
        let bound = 8
        let store = try await openStore(bound: bound)
        let customers = (0..<40).map { "p\($0)" }
        // Each customer's first purchase (its record and app transaction) is durable before the
        // storm: with no idle time at all, only the idle guard would protect a customer created
        // by a request still in flight (CustomerMemoryPolicy.minimumIdleMs, 60 s by default).
        var first: [String: String] = [:]
        for customer in customers { first[customer] = try await buy(store, customer).transactionId }
        let bought = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for customer in customers {
                for _ in 0..<4 {
                    group.addTask { (customer, try await buy(store, customer).transactionId) }
                }
                if customer.hasSuffix("0") {
                    group.addTask { (customer, try await buy(store, customer, "test.monthly").transactionId) }
                }
            }
            var all: [String: Set<String>] = first.mapValues { [$0] }
            for try await (customer, id) in group { all[customer, default: []].insert(id) }
            return all
        }
        // Settled: one more purchase sweeps memory back to the bound.
        _ = try await buy(store, "last")
        #expect(try await store.world(AppStore.defaultWorld).customersInMemory() <= bound + CustomerMemoryPolicy(maximumCustomers: bound).slack)
        for customer in customers {
            let stored = Set(try await all(store, customer).map(\.transactionId))
            #expect(stored == bought[customer], "\(customer): every acknowledged purchase is stored, no other")
        }
        // The subscribers' trials end: each renews exactly once, forgotten or not.
        let before = try await store.lastEventSeq()
        _ = try await store.advanceTime(world, byMs: 8 * dayMs)
        let renewed = try await store.events(world: world, after: before).filter { $0.type == "DID_RENEW" }.map(\.customer)
        #expect(renewed.sorted() == customers.filter { $0.hasSuffix("0") }.sorted())
    }

    @Test func aJumpOverManyForgottenSubscribersRenewsEachExactlyOnce() async throws {
        let store = try await openStore(bound: 5)
        let subscribers = (0..<60).map { "s\($0)" }
        for customer in subscribers { _ = try await buy(store, customer, "test.monthly") }
        try await crowdOut("s0", of: store, bound: 5, tag: "crowd")
        // More forgotten chains fall due in one batch than are read back one by one: all come back at once.
        let before = try await store.lastEventSeq()
        _ = try await store.advanceTime(world, byMs: 8 * dayMs)
        let renewed = try await store.events(world: world, after: before).filter { $0.type == "DID_RENEW" }.map(\.customer)
        #expect(renewed.sorted() == subscribers.sorted())
        for customer in ["s0", "s59"] { #expect(try await all(store, customer).count == 2) }
    }

    @Test func extendingEveryActiveSubscriberReachesForgottenOnes() async throws {
        let store = try await openStore(bound: 3)
        var firsts: [String: TransactionPayload] = [:]
        for customer in ["ana", "bob", "chloe"] { firsts[customer] = try await store.subscribe(customer) }
        try await crowdOut("ana", of: store, bound: 3, tag: "crowd")
        #expect(try await !inMemory(store, "bob"))
        // Apple's mass extension applies to every active subscriber of the product.
        let request = MassExtendRenewalDateRequest(extendByDays: 14, extendReasonCode: 3, requestIdentifier: "outage", productId: "test.yearly")
        _ = try await store.world(AppStore.defaultWorld).extendRenewalDatesForAllActiveSubscribers(request, bundleId: testBundle)
        let status = try await store.world(AppStore.defaultWorld).massExtensionStatus(productId: "test.yearly", requestIdentifier: "outage", bundleId: testBundle)
        #expect(status.succeededCount == 3 && status.failedCount == 0)
        for (customer, first) in firsts {
            #expect(try await store.status(customer).transaction.payload.expiresDate == first.expiresDate! + 14 * dayMs, "\(customer)")
        }
    }

    @Test func aResetWorldHoldsNoOne() async throws {
        let store = try await openStore(bound: 3)
        for n in 0..<4 { _ = try await buy(store, "c\(n)") }
        #expect(try await store.world(AppStore.defaultWorld).customersInMemory() > 0)
        _ = try await store.resetWorld(world)
        #expect(try await store.world(AppStore.defaultWorld).customersInMemory() == 0)
    }

    @Test func aCustomerUsedWithinTheIdleTimeIsKeptUntilIdle() async throws {
        let clock = TestClock()
        let store = try await openStore(bound: 2, idleMs: 60_000, clock: clock)
        for n in 0..<10 { _ = try await buy(store, "c\(n)") }
        // All used within the last minute: a request might still be waiting on any of them.
        #expect(try await store.world(AppStore.defaultWorld).customersInMemory() == 10)
        clock.advance(61)
        _ = try await buy(store, "late")
        #expect(try await store.world(AppStore.defaultWorld).customersInMemory() <= 2 + CustomerMemoryPolicy(maximumCustomers: 2).slack)
        #expect(try await !inMemory(store, "c0"))
    }
}
