import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StoreShared
import StoreTestSupport
import Synchronization
import Testing
@testable import SubscriptionBackend

/// Webhook delivery and reconciliation as ServiceLifecycle services, run in a service group as
/// `openstore backend` runs them beside its HTTP server: they work while the group runs, and a
/// graceful shutdown ends them (the group returns) with nothing cancelled by hand.
@Suite struct BackendServicesTests {
    @Test(.timeLimit(.minutes(1))) func webhooksAreDeliveredInTheGroupAndAGracefulShutdownEndsIt() async throws {
        let kit = try SignedDataKit()
        let received = Mutex<[String]>([])
        let router = Router()
        router.post("hook") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append(String(buffer: body)) }
            return .ok
        }
        let receiver = try await serveOnLoopback(router)
        let hook = WebhookTarget(url: "http://127.0.0.1:\(receiver.port)/hook", secret: "whsec_test")
        try await TestBackend.with(trusting: [kit.authority.rootDER], webhooks: [hook]) { test in
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let dispatcher = WebhookDispatcher(backend: test.backend, http: http)
            let started = WakeSignal()
            started.signal()
            let logger = Logger(label: "test")
            let group = ServiceGroup(configuration: .init(services: [
                WebhookDeliveryService(dispatcher: dispatcher),
                ReconcileService(reconciler: Reconciler(backend: test.backend, http: http), dispatcher: dispatcher,
                                 intervalSeconds: 0, started: started, logger: logger),
            ], logger: logger))
            let running = Task { try await group.run() }

            let t0 = SignedDataKit.start
            let tx = kit.transaction(id: "1", original: "1", purchase: t0, expires: t0 + 30 * SignedDataKit.day,
                                     token: "6f1c1d4e-1111-4a6b-9c1d-5e8f00000009")
            let notification = try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: tx,
                                                    renewal: kit.renewal(original: "1", signed: t0))
            #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: notification) == .applied)
            dispatcher.poke()
            while received.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
            #expect(received.withLock { $0.count == 1 && $0[0].contains("INITIAL_PURCHASE") })

            await group.triggerGracefulShutdown()
            try await running.value  // returns: both services ended on the shutdown
            try await http.shutdown()
        }
        await receiver.stop()
    }
}
