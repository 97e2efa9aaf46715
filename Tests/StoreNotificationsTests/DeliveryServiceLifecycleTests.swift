import Foundation
import Logging
import ServiceLifecycle
import StoreEngine
import StoreNotifications
import StoreSigning
import StoreTestSupport
import Testing

/// Notification delivery and the performance-test runner as ServiceLifecycle services, run in a
/// service group as `openstore serve` runs them beside its HTTP server: they work while the group
/// runs, and a graceful shutdown ends them (the group returns) without cancelling anything by hand.
@Suite(.removesTemporaryFolders) struct DeliveryServiceLifecycleTests {
    @Test(.timeLimit(.minutes(1))) func servicesDeliverInTheGroupAndStopOnGracefulShutdown() async throws {
        let store = try await makeNotificationStore(environment: .sandbox)
        let receiver = try await TestReceiver.start()
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: notificationBundle)
        let delivery = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 2, pollIntervalSeconds: 0.2))
        let group = ServiceGroup(configuration: .init(
            services: [delivery, RetentionPerformanceTestRunner(store: store)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }

        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: notificationBundle, productId: "test.monthly", customer: "ana"))
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        while try receiver.notifications(verifier: verifier).isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try receiver.notifications(verifier: verifier).map(name) == ["SUBSCRIBED/INITIAL_BUY"])

        await group.triggerGracefulShutdown()
        try await running.value
        await receiver.stop()
        await store.close()
    }
}
