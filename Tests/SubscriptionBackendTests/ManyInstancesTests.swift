import AsyncHTTPClient
import Foundation
import Hummingbird
import StoreShared
import StoreSigning
import StoreTestSupport
import Synchronization
import Testing
@testable import SubscriptionBackend

/// Several backend instances on one PostgreSQL database (docs/backend.md, "Many instances"): any
/// of them ingests, each webhook goes out once from one of them, and one reconciles an app at a
/// time. PostgreSQL only: a SQLite file belongs to one process.
@Suite struct ManyInstancesTests {
    let day = SignedDataKit.day
    let t0 = SignedDataKit.start

    /// Ten customers' subscriptions, each bought, renewed, failing to renew and recovered.
    func notifications(_ kit: SignedDataKit) throws -> (users: [String], payloads: [String]) {
        var users: [String] = [], payloads: [String] = []
        for c in 0..<10 {
            let user = String(format: "6f1c1d4e-2222-4a6b-9c1d-5e8f%08d", c)
            let original = "\(7_000 + c * 10)"
            users.append(user)
            let t1 = kit.transaction(id: original, original: original, purchase: t0, expires: t0 + 30 * day, token: user)
            payloads.append(try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: t1,
                                                 renewal: kit.renewal(original: original, signed: t0)))
            let t2 = kit.transaction(id: "\(Int(original)! + 1)", original: original, purchase: t0 + 30 * day, expires: t0 + 60 * day,
                                     token: user, reason: "RENEWAL")
            payloads.append(try kit.notification("DID_RENEW", signed: t0 + 30 * day, transaction: t2,
                                                 renewal: kit.renewal(original: original, signed: t0 + 30 * day)))
            payloads.append(try kit.notification("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signed: t0 + 60 * day, transaction: t2,
                                                 renewal: kit.renewal(original: original, signed: t0 + 60 * day, retry: true,
                                                                      grace: t0 + 76 * day, intent: 2)))
            let t3 = kit.transaction(id: "\(Int(original)! + 2)", original: original, purchase: t0 + 63 * day, expires: t0 + 93 * day,
                                     token: user, reason: "RENEWAL")
            payloads.append(try kit.notification("DID_RENEW", subtype: "BILLING_RECOVERY", signed: t0 + 63 * day, transaction: t3,
                                                 renewal: kit.renewal(original: original, signed: t0 + 63 * day)))
        }
        return (users, payloads)
    }

    /// Every notification sent twice, shuffled, half to each of two instances, all at once: each
    /// is applied once, every customer ends as one instance fed them in order leaves them, and
    /// each purchase and renewal has one event.
    @Test(.enabled(if: BackendTestEngine.postgresURL != nil), .timeLimit(.minutes(2)))
    func twoInstancesIngestingAtOnceApplyEachNotificationOnce() async throws {
        let kit = try SignedDataKit()
        let (users, payloads) = try notifications(kit)
        let expected = try await TestBackend.with(trusting: [kit.authority.rootDER], engine: .postgres) { test in
            for payload in payloads { _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: payload) }
            var out: [String: CustomerInfo] = [:]
            for user in users {
                out[user] = NotificationIngestTests.comparable(try #require(try await test.backend.customerInfo(appUserId: user)))
            }
            return out
        }
        var generator = SeededGenerator(seed: 77)
        let replay = (payloads + payloads).shuffled(using: &generator)
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: .postgres) { test in
            let instances = [test.backend, try await test.sibling()]
            let bundleId = kit.bundleId
            let outcomes = try await withThrowingTaskGroup(of: SubscriptionBackend.Outcome.self) { group in
                for (i, payload) in replay.enumerated() {
                    let backend = instances[i % 2]
                    group.addTask { try await backend.receiveNotification(bundleId: bundleId, signedPayload: payload) }
                }
                return try await group.reduce(into: [SubscriptionBackend.Outcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .applied }.count == payloads.count, "each notification applied once")
            for user in users {
                let info = NotificationIngestTests.comparable(try #require(try await instances[1].customerInfo(appUserId: user)))
                #expect(info == expected[user], "customer \(user)")
                // Each purchase and renewal made its event once. The billing events depend on arrival
                // order (a failure signed before a renewal that came first is stale), as on one instance.
                let types = try await test.eventTypes(user)
                #expect(types.filter { $0 == "INITIAL_PURCHASE" }.count == 1 && types.filter { $0 == "RENEWAL" }.count == 2,
                        "events of \(user): \(types)")
                #expect(types.filter { $0.hasPrefix("BILLING_") }.count <= 2, "events of \(user): \(types)")
            }
        }
    }

    /// Two instances deliver the same outbox at once: each event reaches the URL once, signed.
    /// Deliveries an instance took and never made (it died) go out from the other once its
    /// lease has run out, and not before.
    @Test(.enabled(if: BackendTestEngine.postgresURL != nil), .timeLimit(.minutes(2)))
    func eachWebhookGoesOutOnceAndADeadInstancesAreTakenOverAfterTheLease() async throws {
        let kit = try SignedDataKit()
        let (_, payloads) = try notifications(kit)
        let received = Mutex<[String: Int]>([:])
        let badSignatures = Mutex(0)
        let router = Router()
        router.post("hook") { request, _ -> HTTPResponse.Status in
            let body = String(buffer: try await request.body.collect(upTo: 1 << 20))
            let id = request.headers[.init("OpenStore-Event-Id")!] ?? "?"
            let signature = request.headers[.init("OpenStore-Signature")!] ?? ""
            let timestamp = Int64(signature.split(separator: ",").first?.dropFirst(2) ?? "") ?? 0
            if signature != WebhookDispatcher.signature(body: body, secret: "whsec_many", timestamp: timestamp) {
                badSignatures.withLock { $0 += 1 }
            }
            received.withLock { $0[id, default: 0] += 1 }
            return .ok
        }
        let receiver = try await serveOnLoopback(router)
        let hook = WebhookTarget(url: "http://127.0.0.1:\(receiver.port)/hook", secret: "whsec_many")
        let time = ManualWallClock(nowMs: t0 + 100 * day)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], webhooks: [hook], engine: .postgres, clock: .manual(time)) { test in
                let a = test.backend, b = try await test.sibling()
                for payload in payloads.prefix(20) { _ = try await a.receiveNotification(bundleId: kit.bundleId, signedPayload: payload) }
                let first = try await a.database.outboxStates().count
                #expect(first > 0)
                let (da, db) = (WebhookDispatcher(backend: a, http: http), WebhookDispatcher(backend: b, http: http))
                async let ra = da.round()
                async let rb = db.round()
                _ = try await (ra, rb)
                #expect(received.withLock { $0.count } == first && received.withLock { $0.values.allSatisfy { $0 == 1 } })
                #expect(try await a.database.outboxStates().allSatisfy { $0 == "delivered" })

                // A takes the next deliveries and dies before making them.
                for payload in payloads.dropFirst(20) { _ = try await a.receiveNotification(bundleId: kit.bundleId, signedPayload: payload) }
                let lease = Int64(a.configuration.webhookLeaseSeconds * 1000)
                // Deliveries leased and handed back unstarted (a stopping instance's) are due again at once.
                let handed = try await a.database.write { store in
                    try await store.leaseDueOutbox(nowMs: time.nowMs, limit: 1000, untilMs: time.nowMs + lease)
                }
                try await a.database.write { store in try await store.releaseLease(handed, untilMs: time.nowMs + lease) }
                let taken = try await a.database.write { store in
                    try await store.leaseDueOutbox(nowMs: time.nowMs, limit: 1000, untilMs: time.nowMs + lease)
                }
                #expect(!taken.isEmpty && taken.count == handed.count)
                #expect(try await db.round() == 0, "B leaves A's deliveries alone while A's lease runs")
                time.advance(byMs: lease)
                while try await db.round() > 0 {}
                let counts = received.withLock { $0 }
                #expect(counts.count == first + taken.count && counts.values.allSatisfy { $0 == 1 }, "\(counts.values.filter { $0 > 1 }.count) sent twice")
                #expect(try await a.database.outboxStates().allSatisfy { $0 == "delivered" })
                #expect(badSignatures.withLock { $0 } == 0)
            }
        } catch {
            Issue.record(error)
        }
        try await http.shutdown()
        await receiver.stop()
    }

    /// Two instances asked to reconcile at once: one runs the pass, the other says the app is
    /// being reconciled elsewhere and calls nothing; once the first is done, the lock is free.
    @Test(.enabled(if: BackendTestEngine.postgresURL != nil), .timeLimit(.minutes(2)))
    func twoInstancesAskedToReconcileAtOnceRunItOnce() async throws {
        let kit = try SignedDataKit()
        let calls = Mutex(0)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let router = Router()
        router.post("/inApps/v1/notifications/history") { _, _ -> Response in
            if calls.withLock({ $0 += 1; return $0 }) == 1 { for await _ in gate { break } }  // the first pass waits here
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"notificationHistory":[],"hasMore":false}"#)))
        }
        let apple = try await serveOnLoopback(router)
        let folder = TemporaryFolder.make("reconcile-lock")
        let generated = APIKeyFactory.generate(bundleId: kit.bundleId)
        let p8 = folder.appendingPathComponent("key.p8")
        try generated.privateKeyP8.write(to: p8, atomically: true, encoding: .utf8)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], engine: .postgres, configure: { configuration in
                configuration.apps[0].apiKey = APIKeyConfiguration(privateKeyFile: p8.path, keyId: generated.key.keyId, issuerId: generated.key.issuerId)
                configuration.apps[0].apiBaseURL = "http://127.0.0.1:\(apple.port)"
            }) { test in
                let a = Reconciler(backend: test.backend, http: http), b = Reconciler(backend: try await test.sibling(), http: http)
                let first = Task { await a.reconcile() }
                while calls.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
                let second = await b.reconcile()
                #expect(second.runningElsewhere == [kit.bundleId])
                #expect(calls.withLock { $0 } == 1, "the second instance called nothing")
                open.yield()
                let report = await first.value
                #expect(report.runningElsewhere.isEmpty && report.errors.isEmpty, "\(report.errors)")
                let again = await b.reconcile()
                #expect(again.runningElsewhere.isEmpty && again.errors.isEmpty, "the lock was let go: \(again.errors)")
            }
        } catch {
            Issue.record(error)
        }
        open.finish()
        try await http.shutdown()
        await apple.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
