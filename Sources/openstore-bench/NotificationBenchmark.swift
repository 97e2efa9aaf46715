import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import StoreEngine
import StoreModel
import StoreNotifications
import StoreSigning
import StoreStorage
import Synchronization

/// Requests the benchmark's receiver has answered.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// Server notifications (issue 5 §6): deliveries per second from the outbox to a loopback receiver
/// and the time to drain a backlog, beside what bounds them, measured in the same run: the raw
/// JWS signing rate (each subscription notification signs three JWS) and the receiver's own rate
/// for a bare POST of the same body from the same HTTP client at the same concurrency.
struct NotificationBenchmark {
    var backlog: Int
    var concurrency: Int
    var seconds: Double

    struct Figures {
        var signPerSecond: Double
        var barePostPerSecond: Double
        var deliveriesPerSecond: Double
        var backlog: Int
        var drainSeconds: Double
        var fillSeconds: Double
        var bodyBytes: Int
    }

    func run(log: (String) -> Void) async throws -> Figures {
        let received = Counter()
        let receiver = try await RunningServer.start { ready in
            let router = Router()
            router.post("notify") { request, _ in
                _ = try await request.body.collect(upTo: 1 << 20)
                received.value.add(1, ordering: .relaxed)
                return Response(status: .ok)
            }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                  onServerRunning: { await ready($0.localAddress?.port ?? 0) })
            try await app.runService(gracefulShutdownSignals: [])
        }
        defer { Task { await receiver.stop() } }
        let url = "http://127.0.0.1:\(receiver.port)/notify"

        // A store with one Production app whose URL is the receiver, and one real notification.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-notify-\(UUID().uuidString)")
        let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
        let app = try StoreApp(bundleId: "com.example.backyardbirds", appAppleId: 1_640_000_001, environment: .production,
                               name: "Backyard Birds", catalogJSON: DemoCatalogs.backyardBirds)
        let store = try await AppStore.open(database: database, apps: [app], runScheduler: false)
        _ = try await store.setNotificationURL("http://127.0.0.1:9/unused", bundleId: app.bundleId, environment: "Production")
        _ = try await store.purchase(PurchaseRequest(bundleId: app.bundleId, productId: "com.example.backyardbirds.pass.individual", customer: "bench"))
        guard let template = try await database.notifications(world: AppStore.defaultWorld).first else { throw BenchError("no notification emitted") }
        _ = try await store.setNotificationURL(url, bundleId: app.bundleId, environment: "Production")
        guard let due = try await store.dueNotifications(world: AppStore.defaultWorld, limit: 1).first else { throw BenchError("no notification due") }
        let body = store.requestBody(of: due)
        // Mark the template delivered so only the backlog counts.
        var done = WriteBatch()
        done.notifications = [.attempt(NotificationAttemptUpdate(seq: template.seq, attemptCount: 1, delivered: true, nextAttemptMs: nil, attempts: "[]"))]
        try await database.write(done)

        // 1. Raw signing rate: the store's signer on one thread, the notification's own payload.
        let signer = JWSSigner(authority: store.authority)
        let payload = try Self.payload(ofRequestBody: body)
        var signs = 0
        let signStart = Date()
        while Date().timeIntervalSince(signStart) < 1 {
            for _ in 0..<200 { _ = signer.sign(payloadJSON: payload) }
            signs += 200
        }
        let signRate = Double(signs) / Date().timeIntervalSince(signStart)
        log(String(format: "JWS sign: %.0f /s on one thread (a subscription notification signs 3)", signRate))

        // 2. The receiver's own rate for a bare POST of the same body, same client, same concurrency.
        var config = HTTPClient.Configuration()
        config.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
        let bare = try await barePosts(client: client, url: url, body: body, seconds: seconds)
        try await client.shutdown()
        log(String(format: "bare POST of %d bytes: %.0f /s at %d in flight", body.count, bare, concurrency))

        // 3. The backlog: N notifications due now, then the delivery service drains it.
        let fillStart = Date()
        var next: Int64 = 1_000_000_000_000
        var remaining = backlog
        while remaining > 0 {
            let count = min(remaining, 5000)
            var batch = WriteBatch()
            batch.notifications.reserveCapacity(count)
            for _ in 0..<count {
                var row = template
                row.seq = next
                row.uuid = UUID().uuidString.lowercased()
                row.attemptCount = 0
                row.delivered = false
                row.attempts = "[]"
                next += 1
                batch.notifications.append(.emit(row))
            }
            try await database.write(batch)
            remaining -= count
        }
        let fill = Date().timeIntervalSince(fillStart)
        log(String(format: "backlog of %d notifications written in %.1f s", backlog, fill))
        received.value.store(0, ordering: .relaxed)
        let service = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 10, concurrency: concurrency, batchSize: 4000))
        let drainStart = Date()
        var lastReport = drainStart
        while true {
            let sent = try await service.deliverDue()
            if sent == 0 { break }
            if Date().timeIntervalSince(lastReport) > 10 {
                lastReport = Date()
                log(String(format: "  … %d delivered after %.0f s", received.value.load(ordering: .relaxed), lastReport.timeIntervalSince(drainStart)))
            }
        }
        let drain = Date().timeIntervalSince(drainStart)
        await service.shutdown()
        let delivered = received.value.load(ordering: .relaxed)
        guard delivered >= backlog else { throw BenchError("only \(delivered) of \(backlog) notifications arrived") }
        await store.shutdown()
        await database.close()
        try? FileManager.default.removeItem(at: folder)
        return Figures(signPerSecond: signRate, barePostPerSecond: bare, deliveriesPerSecond: Double(backlog) / drain,
                       backlog: backlog, drainSeconds: drain, fillSeconds: fill, bodyBytes: body.count)
    }

    /// The JWS payload of `{"signedPayload":"header.payload.signature"}`: the notification's JSON
    /// with its nested transaction and renewal info, as the store signs it.
    static func payload(ofRequestBody body: [UInt8]) throws -> [UInt8] {
        let parts = String(decoding: body, as: UTF8.self).split(separator: ".")
        guard parts.count == 3, let json = Base64URL.decode(parts[1]) else { throw BenchError("not a signed notification body") }
        return json
    }

    /// POSTs `body` for `seconds` with `concurrency` requests in flight; requests per second.
    func barePosts(client: HTTPClient, url: String, body: [UInt8], seconds: Double) async throws -> Double {
        let buffer = ByteBuffer(bytes: body)
        let start = Date()
        let deadline = start.addingTimeInterval(seconds)
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while Date() < deadline {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(buffer)
                        let response = try await client.execute(request, timeout: .seconds(10))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(count) / Date().timeIntervalSince(start)
    }
}
