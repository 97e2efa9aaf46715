import Foundation
import StoreEngine
import StoreModel
@testable import StoreStorage
import StoreTestSupport
import Testing
import StoreShared

/// A world applies a decision to memory before its write is durable. When the write fails (here a
/// real SQLite file whose writer refuses every write, `PRAGMA query_only`, which fails a write with
/// SQLITE_READONLY as a read-only disk does), memory must not keep the change: the store answers
/// 503 (nothing acknowledged) and, once the database takes writes again, behaves as if the failed
/// request never came (DESIGN.md: "nothing acknowledged is lost"; events "fire in order and
/// exactly once"). Issue 12, the last session's most important open bug.
@Suite(.removesTemporaryFolders) struct FailedWriteRecoveryTests {
    /// The store, the database it writes to, and its clock; no background scheduler, so the
    /// catch-ups happen where the test asks for them.
    func openStore() async throws -> (AppStore, StoreDatabase, TestClock) {
        let clock = TestClock()
        // SQLite always: the fault is injected through its writing connection (query_only).
        let database = try await StoreDatabase.open(path: TemporaryFolder.make("engine").appendingPathComponent("store.sqlite").path)
        let store = try await AppStore.open(database: database, apps: [try makeApp()], clock: clock, runScheduler: false)
        return (store, database, clock)
    }

    /// Makes the store's writing connection refuse (or take again) every write.
    func refuseWrites(_ database: StoreDatabase, _ refused: Bool) async throws {
        let engine = try #require(database.engine as? SQLiteEngine)
        try await engine.refuseWrites(refused)
    }

    func isTemporarilyUnavailable(_ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return false
        } catch {
            return error is any TemporarilyUnavailable
        }
    }

    @Test func aNonConsumableRefusedForAFailedWriteCanBeBoughtOnceWritesWork() async throws {
        let (store, database, _) = try await openStore()
        let request = PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "ana")
        try await refuseWrites(database, true)
        #expect(await isTemporarilyUnavailable { _ = try await store.world(AppStore.defaultWorld).purchase(request) })
        try await refuseWrites(database, false)
        // Before the fix the refused purchase still counted as owned: alreadyPurchased until restart.
        let bought = try await store.world(AppStore.defaultWorld).purchase(request)
        #expect(bought.transaction?.payload.productId == "test.history")
        let owned = try await store.world(world).transactions(bundleId: testBundle, customer: "ana", scope: .all)
        #expect(owned.count == 1)
        // Owned now, and only now: a second purchase is refused as Apple refuses it.
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(request) } == "alreadyPurchased")
    }

    @Test func renewalsDueDuringAnOutageAreAllWrittenOnceWritesWorkAndExactlyOnce() async throws {
        let (store, database, clock) = try await openStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        for customer in ["ana", "bob"] {
            _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: customer))
        }
        try await refuseWrites(database, true)
        // 40 days pass: the free week ends and the first paid month ends, for both subscribers.
        clock.advance(40 * 86_400)
        let seeds = PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "carl")
        // A purchase catches the scheduler up first; its batch of renewals cannot be written.
        #expect(await isTemporarilyUnavailable { _ = try await store.world(AppStore.defaultWorld).purchase(seeds) })
        #expect(await isTemporarilyUnavailable { _ = try await store.world(AppStore.defaultWorld).purchase(seeds) })
        try await refuseWrites(database, false)
        _ = try await store.world(AppStore.defaultWorld).purchase(seeds)

        for customer in ["ana", "bob"] {
            let periods = try await store.world(world).transactions(bundleId: testBundle, customer: customer, scope: .all)
                .map(\.payload).sorted { $0.purchaseDate < $1.purchaseDate }
            // Before the fix: one period only; memory had moved on and the renewals were never written.
            #expect(periods.count == 3, "\(customer): \(periods.count) periods")
            #expect(Set(periods.map(\.transactionId)).count == periods.count)
            #expect(zip(periods, periods.dropFirst()).allSatisfy { $1.purchaseDate == $0.expiresDate })
            #expect(periods.last?.expiresDate ?? 0 > t0 + 40 * 86_400_000)
        }
        let renewals = try await store.world(world).events().filter { $0.type == "DID_RENEW" }
        #expect(renewals.count == 4)
        #expect(Set(renewals.map(\.transactionId)).count == 4)
    }

    @Test func aFailedClockJumpLeavesTheClockWhereTheDatabaseHasIt() async throws {
        let (store, database, _) = try await openStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "ana"))
        try await refuseWrites(database, true)
        #expect(await isTemporarilyUnavailable { _ = try await store.advanceTime(world, byMs: 40 * 86_400_000) })
        try await refuseWrites(database, false)
        // The refused jump did not happen: no time passed, no renewal fired.
        #expect(try await store.world(AppStore.defaultWorld).nowMs() == t0)
        _ = try await store.advanceTime(world, byMs: 40 * 86_400_000)
        let periods = try await store.world(world).transactions(bundleId: testBundle, customer: "ana", scope: .all)
        #expect(periods.count == 3)
    }
}
