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
    /// A backend whose one webhook URL is `answer` served on loopback (it gets each body), with a
    /// dispatcher and the HTTP client it uses; all stopped afterwards.
    static func withHook(_ kit: SignedDataKit, _ answer: @escaping @Sendable (String) async -> HTTPResponse.Status,
                         _ body: (TestBackend, WebhookDispatcher, HTTPClient) async throws -> Void) async throws {
        let router = Router()
        router.post("hook") { request, _ -> HTTPResponse.Status in
            await answer(String(buffer: try await request.body.collect(upTo: 1 << 20)))
        }
        let receiver = try await serveOnLoopback(router)
        let hook = WebhookTarget(url: "http://127.0.0.1:\(receiver.port)/hook", secret: "whsec_test")
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], webhooks: [hook]) { test in
                try await body(test, WebhookDispatcher(backend: test.backend, http: http), http)
            }
        } catch {
            try? await http.shutdown()
            await receiver.stop()
            throw error
        }
        try await http.shutdown()
        await receiver.stop()
    }

    /// A new subscription's notification: one event, so one webhook.
    static func subscribed(_ kit: SignedDataKit) throws -> String {
        let t0 = SignedDataKit.start
        let tx = kit.transaction(id: "1", original: "1", purchase: t0, expires: t0 + 30 * SignedDataKit.day,
                                 token: "6f1c1d4e-1111-4a6b-9c1d-5e8f00000009")
        return try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: tx,
                                    renewal: kit.renewal(original: "1", signed: t0))
    }

    @Test(.timeLimit(.minutes(1))) func webhooksAreDeliveredInTheGroupAndAGracefulShutdownEndsIt() async throws {
        let kit = try SignedDataKit()
        let received = Mutex<[String]>([])
        try await Self.withHook(kit, { body in received.withLock { $0.append(body) }; return .ok }) { test, dispatcher, http in
            let started = WakeSignal()
            started.signal()
            let logger = Logger(label: "test")
            let group = ServiceGroup(configuration: .init(services: [
                WebhookDeliveryService(dispatcher: dispatcher),
                ReconcileService(reconciler: Reconciler(backend: test.backend, http: http), dispatcher: dispatcher,
                                 intervalSeconds: 0, started: started, logger: logger),
            ], logger: logger))
            let running = Task { try await group.run() }

            #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try Self.subscribed(kit)) == .applied)
            dispatcher.poke()
            while received.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
            #expect(received.withLock { $0.count == 1 && $0[0].contains("INITIAL_PURCHASE") })

            await group.triggerGracefulShutdown()
            try await running.value  // returns: both services ended on the shutdown
        }
    }

    /// A graceful shutdown during a delivery lets it finish: the receiver's answer is recorded as
    /// delivered, not cut off as a failure to be sent again.
    @Test(.timeLimit(.minutes(1))) func aGracefulShutdownFinishesTheDeliveryInFlight() async throws {
        let kit = try SignedDataKit()
        let (arrived, arrive) = AsyncStream.makeStream(of: Void.self)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        try await Self.withHook(kit, { _ in
            arrive.yield()
            for await _ in gate { break }  // answers once the test has asked for the shutdown
            return .ok
        }) { test, dispatcher, _ in
            let logger = Logger(label: "test")
            let group = ServiceGroup(configuration: .init(services: [WebhookDeliveryService(dispatcher: dispatcher)], logger: logger))
            let running = Task { try await group.run() }
            #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try Self.subscribed(kit)) == .applied)
            dispatcher.poke()
            for await _ in arrived { break }
            await group.triggerGracefulShutdown()
            open.yield()
            try await running.value
            let log = try await dispatcher.log(eventId: nil, limit: 10)
            #expect(log.count == 1 && log.first?.ok == true, "\(log)")
            #expect(try await dispatcher.outboxCounts() == ["delivered": 1])
        }
        open.finish()
    }
}
