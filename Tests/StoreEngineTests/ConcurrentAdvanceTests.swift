import Foundation
import StoreEngine
import StoreTestSupport
import Testing

/// Found by the reliability suite (issue 15, `reliability/checks_concurrency.py`): 100 admin
/// calls advancing one world by a day at once moved its clock 10 days, because each jump measured
/// its target from the clock it saw when it began. Jumps now queue, so every one counts.
@Suite(.removesTemporaryFolders) struct ConcurrentAdvanceTests {
    @Test func concurrentJumpsEachMoveTheClockAndEachRenewalHappensOnce() async throws {
        let store = try await makeStore()
        let t0 = try await store.world(AppStore.defaultWorld).nowMs()
        let bought = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "ana"))
        #expect(bought.transaction != nil)
        let day: Int64 = 86_400_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask { _ = try await store.advanceTime(world, byMs: day) }
            }
            try await group.waitForAll()
        }
        // The test clock stands still: only the jumps move the world.
        #expect(try await store.world(AppStore.defaultWorld).nowMs() == t0 + 40 * day)
        let periods = try await store.world(world).transactions(bundleId: testBundle, customer: "ana", scope: .all)
            .map(\.payload).sorted { $0.purchaseDate < $1.purchaseDate }
        // 40 days: the free week, the first paid month (28–31 days) and its renewal, end to end.
        #expect(periods.count == 3)
        #expect(zip(periods, periods.dropFirst()).allSatisfy { $1.purchaseDate == $0.expiresDate })
        #expect(periods.last?.expiresDate ?? 0 > t0 + 40 * day)
    }
}
