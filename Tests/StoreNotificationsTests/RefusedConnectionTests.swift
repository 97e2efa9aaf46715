import Foundation
import StoreNotifications
import StoreTestSupport
import Testing
@testable import StoreEngine

/// A receiver whose port refuses connections is a SOCKET_ISSUE at once (issue 16 §14), not a
/// failure recorded only when the delivery timeout ends.
@Suite("Refused connections", .serialized, .removesTemporaryFolders)
struct RefusedConnectionTests {
    @Test("a refused connection is recorded as SOCKET_ISSUE without waiting for the timeout")
    func refusedIsImmediate() async throws {
        let store = try await makeNotificationStore(environment: .sandbox)
        let receiver = try await TestReceiver.start()
        await receiver.stop()                                   // the port now refuses connections
        // A timeout far longer than the test's own bound: an attempt that waited for it would
        // never be recorded before the bound below.
        let delivery = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 600))
        _ = try await store.setNotificationURL(receiver.url, bundleId: notificationBundle)
        _ = try await store.purchase(PurchaseRequest(bundleId: notificationBundle, productId: "test.seeds", customer: "jane"))

        let drained = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { _ = try await delivery.drain(); return true }
            group.addTask { try await Task.sleep(for: .seconds(60)); return false }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(drained, "the attempt was still waiting after 60 s: the refusal was not seen as one")
        let rows = try await store.notifications()
        #expect(rows.count == 1)
        #expect(rows.first?.sendAttempts.map(\.sendAttemptResult) == ["SOCKET_ISSUE"])
        await delivery.shutdown()
    }
}
