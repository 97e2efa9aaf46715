import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import StoreShared
import StoreSigning
import StoreTestSupport
import Synchronization
import Testing
@testable import SubscriptionBackend

/// What a reconcile pass asks Apple, against a Server API written in the test: the statuses of
/// exactly the subscriptions the backend cannot be sure of, and each customer's Transaction
/// History from the revision it stored.
@Suite struct ReconcileTests {
    @Test(arguments: BackendTestEngine.all) func statusesAreAskedForLapsedAndRetryingSubscriptionsOnly(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let t0 = SignedDataKit.start, day = SignedDataKit.day
        let asked = Mutex<[String]>([]), revisionsSent = Mutex<[String?]>([])
        let router = Router()
        router.post("/inApps/v1/notifications/history") { _, _ in Self.json(#"{"notificationHistory":[],"hasMore":false}"#) }
        router.get("/inApps/v2/history/:id") { request, _ in
            revisionsSent.withLock { $0.append(request.uri.queryParameters["revision"].map(String.init)) }
            return Self.json(#"{"revision":"r1","hasMore":false,"signedTransactions":[],"bundleId":"\#(kit.bundleId)","environment":"Sandbox"}"#)
        }
        router.get("/inApps/v1/subscriptions/:id") { _, context in
            asked.withLock { $0.append(context.parameters.get("id") ?? "") }
            return Self.json(#"{"data":[],"bundleId":"\#(kit.bundleId)","environment":"Sandbox"}"#)
        }
        let apple = try await serveOnLoopback(router)
        let folder = TemporaryFolder.make("reconcile")
        let generated = APIKeyFactory.generate(bundleId: kit.bundleId)
        let p8 = folder.appendingPathComponent("key.p8")
        try generated.privateKeyP8.write(to: p8, atomically: true, encoding: .utf8)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let clock = ManualWallClock(nowMs: t0 + 40 * day)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock), configure: { configuration in
                configuration.apps[0].apiKey = APIKeyConfiguration(privateKeyFile: p8.path, keyId: generated.key.keyId, issuerId: generated.key.issuerId)
                configuration.apps[0].apiBaseURL = "http://127.0.0.1:\(apple.port)"
            }) { test in
                // (original, expires, auto-renew, billing retry, revoked); the clock reads day 40.
                let subscriptions: [(String, Int64, Bool, Bool, Bool)] = [
                    ("lapsed", t0 + 30 * day, true, false, false),       // past its end, renewing, no word: uncertain
                    ("active", t0 + 60 * day, true, false, false),       // still in its period
                    ("cancelled", t0 + 30 * day, false, false, false),   // ended as the customer asked
                    ("retrying", t0 + 45 * day, true, true, false),      // in billing retry: uncertain
                    ("refunded", t0 + 30 * day, true, false, true),      // revoked: nothing to ask
                ]
                for (index, (original, expires, autoRenew, retry, revoked)) in subscriptions.enumerated() {
                    let purchase = t0 + Int64(index)
                    let tx = kit.transaction(id: original, original: original, purchase: purchase, expires: expires,
                                             revoked: revoked ? purchase + day : nil)
                    let n = try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: purchase, transaction: tx,
                                                 renewal: kit.renewal(original: original, autoRenew: autoRenew, signed: purchase, retry: retry))
                    #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) == .applied)
                    _ = try await test.backend.receiveTransaction(appUserId: "user-\(original)", signedTransaction: try kit.sign(tx))
                }
                let reconciler = Reconciler(backend: test.backend, http: http)
                let first = await reconciler.reconcile()
                #expect(first.errors.isEmpty, "\(first.errors)")
                #expect(Set(asked.withLock { $0 }) == ["lapsed", "retrying"])
                #expect(first.subscriptionsChecked == 2)
                #expect(revisionsSent.withLock { $0 }.allSatisfy { $0 == nil }, "no revision was stored before the first pass")
                let stored = try await test.backend.database.revisions(environment: "Sandbox", bundleId: kit.bundleId)
                #expect(stored.count == subscriptions.count && stored.values.allSatisfy { $0 == "r1" })

                // The next pass continues from the stored revisions.
                revisionsSent.withLock { $0 = [] }
                let second = await reconciler.reconcile()
                #expect(second.errors.isEmpty, "\(second.errors)")
                #expect(revisionsSent.withLock { $0 } == Array(repeating: "r1", count: subscriptions.count))
            }
        } catch {
            Issue.record(error)
        }
        try await http.shutdown()
        await apple.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static func json(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
