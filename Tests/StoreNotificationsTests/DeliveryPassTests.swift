import Foundation
import StoreModel
import StoreNotifications
import StoreSigning
import StoreTestSupport
import Testing
@testable import StoreEngine

/// A delivery pass read page by page while earlier pages are in flight (docs/notifications.md,
/// "Passes"): every notification due gets exactly one attempt per pass, whether it succeeds or
/// fails, and a failed one comes round again only when its retry is due.
@Suite("Delivery passes", .serialized, .removesTemporaryFolders)
struct DeliveryPassTests {
    @Test("pages of 4 with 8 in flight: each of 30 notifications once per pass, retried once an hour later")
    func eachNotificationOncePerPass() async throws {
        let store = try await makeNotificationStore(environment: .production)
        let receiver = try await TestReceiver.start()
        receiver.status.withLock { $0 = 500 }
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: notificationBundle, environment: "Production")
        for index in 0..<30 {
            _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: notificationBundle, productId: "test.seeds", customer: "c\(index)"))
        }
        let delivery = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 5, concurrency: 8, pageSize: 4))
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        func uuids() throws -> [String] { try receiver.notifications(verifier: verifier).map { $0["notificationUUID"] as! String } }

        // Refused (500): one attempt each in the pass, none again until the retry is due.
        #expect(try await delivery.deliverDue() == 30)
        #expect(try await delivery.deliverDue() == 0)
        #expect(try uuids().count == 30 && Set(try uuids()).count == 30)
        #expect(try await store.world(AppStore.defaultWorld).notifications().allSatisfy { $0.sendAttempts.count == 1 && !$0.delivered })

        // An hour later the receiver answers 200: one more attempt each, all delivered.
        receiver.status.withLock { $0 = 200 }
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: hourMs)
        #expect(try await delivery.drain() == 30)
        let sent = try uuids()
        #expect(sent.count == 60 && Set(sent).count == 30)
        let rows = try await store.world(AppStore.defaultWorld).notifications()
        #expect(rows.count == 30 && rows.allSatisfy { $0.delivered && $0.sendAttempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"] })
        await receiver.stop()
        await delivery.shutdown()
    }
}
