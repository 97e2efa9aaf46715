import Foundation
import StoreEngine
import StoreShared
import StoreTestSupport
import Testing

/// The engine's UUIDs come from the store's `UUIDSource`: the same seed and clock give the same
/// notification UUIDs, run after run; the system's do not repeat.
@Suite(.removesTemporaryFolders) struct InjectedUUIDTests {
    func notificationUUIDs(_ uuids: UUIDSource) async throws -> [String] {
        let database = try await openTestDatabase(databasePath())
        let store = try await AppStore.open(database: database, apps: [try makeApp()], clock: TestClock(), uuids: uuids)
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/notifications", bundleId: testBundle)
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "al"))
        _ = try await store.world(AppStore.defaultWorld).requestTestNotification(bundleId: testBundle)
        let found = try await store.world(AppStore.defaultWorld).notifications().map(\.notificationUUID)
        await store.close()
        return found
    }

    @Test func seededUUIDsRepeatAndSystemOnesDoNot() async throws {
        let first = try await notificationUUIDs(.seeded(7))
        let again = try await notificationUUIDs(.seeded(7))
        let system = try await notificationUUIDs(.system)
        #expect(first.count == 2 && first == again)
        #expect(Set(first).isDisjoint(with: system))
        #expect(first.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
    }
}
