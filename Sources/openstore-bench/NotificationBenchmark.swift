import AsyncHTTPClient
import Foundation
import NIOCore
import StoreEngine
import StoreModel
import StoreNotifications
import StoreSigning
import StoreStorage

/// Server notifications (#12, "deliveries"): a backlog drained from the outbox to a receiver in a
/// separate process on loopback (`NotificationReceiverProcess`), beside the set-up's combined
/// limit measured in the same run.
///
/// The combined limit. A delivery is a POST of the signed body plus the three signatures that
/// make the body (`signedTransactionInfo`, `signedRenewalInfo`, the notification itself), all on
/// the same cores, so their times add:
///
///     per-delivery time = 1 / barePOST + 1 / (signSets × cores)
///     combined limit    = 1 / per-delivery time
///
/// - `barePOST`: POSTs per second of the same body, from the same HTTP client (the delivery
///   service's own configuration) at the same number in flight, to the same receiver process:
///   the whole machine doing nothing but the HTTP of a delivery, both ends of it included.
/// - `signSets`: the three JWS of one delivery (its own payloads: the transaction, the renewal
///   info, then the notification with both nested) signed per second on one thread; signing
///   spreads over every core, so the machine signs `signSets × cores` deliveries' worth per second.
///
/// Everything else a delivery does (read the outbox row, build the payload, write the outcome,
/// schedule the attempt) is the overhead the ratio deliveries ÷ combined limit measures.
/// Each limit is measured before and after the drain and the better kept (the limit can only be
/// overstated by that, never the ratio flattered).
struct NotificationBenchmark {
    var backlog: Int
    var concurrency: Int
    var seconds: Double

    struct Figures {
        /// The three JWS of one delivery, per second, on one thread.
        var signSetsPerSecond: Double
        var cores: Int
        var barePostPerSecond: Double
        var deliveriesPerSecond: Double
        var backlog: Int
        var drainSeconds: Double
        var fillSeconds: Double
        var bodyBytes: Int
        /// CPU seconds per delivery in the store's process and in the receiver's, during the drain.
        var storeCPUPerDelivery: Double
        var receiverCPUPerDelivery: Double
        /// The same for a bare POST (the client's process and the receiver's).
        var clientCPUPerBarePost: Double
        var receiverCPUPerBarePost: Double
        /// Cores other processes (other than the store and its receiver) used during the drain.
        var othersDuringDrain: Double

        var combinedLimit: Double { 1 / (1 / barePostPerSecond + 1 / (signSetsPerSecond * Double(cores))) }
    }

    func run(log: @escaping @Sendable (String) -> Void) async throws -> Figures {
        let configuration = NotificationDeliveryConfiguration(timeoutSeconds: 10, concurrency: concurrency)
        let receiver = try await NotificationReceiverProcess.start()
        let client = NotificationDeliveryService.makeClient(configuration)
        do {
            let figures = try await run(receiver: receiver, client: client, configuration: configuration, log: log)
            try await client.shutdown()
            await receiver.stop()
            return figures
        } catch {
            try? await client.shutdown()
            await receiver.stop()
            throw error
        }
    }

    private func run(receiver: NotificationReceiverProcess, client: HTTPClient, configuration: NotificationDeliveryConfiguration,
                     log: @escaping @Sendable (String) -> Void) async throws -> Figures {
        log("receiver: process \(receiver.pid) on 127.0.0.1:\(receiver.port)")
        // A store with one Production app whose URL is the receiver, and one real notification.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-notify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
        let app = try StoreApp(bundleId: "com.example.backyardbirds", appAppleId: 1_640_000_001, environment: .production,
                               name: "Backyard Birds", catalogJSON: DemoCatalogs.backyardBirds)
        let store = try await AppStore.open(database: database, apps: [app], runScheduler: false)
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/unused", bundleId: app.bundleId, environment: "Production")
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: app.bundleId, productId: "com.example.backyardbirds.pass.individual", customer: "bench"))
        guard let template = try await database.notifications(world: AppStore.defaultWorld).first,
              let transactionJSON = template.transactionJSON, let renewalJSON = template.renewalJSON
        else { throw BenchError("no subscription notification emitted") }
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: app.bundleId, environment: "Production")
        guard let due = try await store.world(AppStore.defaultWorld).dueNotifications(limit: 1).first else { throw BenchError("no notification due") }
        let body = store.requestBody(of: due)
        // Mark the template delivered so only the backlog counts.
        var done = WriteBatch()
        done.notifications = [.attempt(NotificationAttemptUpdate(seq: template.seq, attemptCount: 1, delivered: true, nextAttemptMs: nil, attempts: "[]"))]
        try await database.write(done)

        let signer = JWSSigner(authority: store.authority)
        let payloads = [Array(transactionJSON.utf8), Array(renewalJSON.utf8), try Self.payload(ofRequestBody: body)]
        let cores = System.coreCount

        // 1. The limits, before the drain.
        var signSets = signSetRate(signer: signer, payloads: payloads)
        var bare = try await barePosts(client: client, receiver: receiver, body: body)
        log(String(format: "three JWS of a delivery (%d + %d + %d payload bytes): %.0f sets/s on one thread",
                   payloads[0].count, payloads[1].count, payloads[2].count, signSets))
        log(String(format: "bare POST of %d bytes: %.0f /s at %d in flight (client %.0f µs + receiver %.0f µs CPU each)",
                   body.count, bare.perSecond, concurrency, bare.clientCPU * 1e6, bare.receiverCPU * 1e6))

        // 2. The backlog: N notifications due now, then the delivery service drains it.
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

        let service = NotificationDeliveryService(store: store, configuration: configuration)
        let countBefore = try await receiver.count(client: client)
        let progress = Task {
            let start = Date()
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(10))
                let count = try await receiver.count(client: client) - countBefore
                log(String(format: "  … %d delivered after %.0f s", count, Date().timeIntervalSince(start)))
            }
        }
        let cpuStart = CPUSample.now(), receiverStart = receiver.cpuSeconds()
        let drainStart = Date()
        while try await service.deliverDue() > 0 {}
        let drain = Date().timeIntervalSince(drainStart)
        let cpu = CPUUsage(from: cpuStart, to: .now()), receiverCPU = receiver.cpuSeconds() - receiverStart
        progress.cancel()
        await service.shutdown()
        let delivered = try await receiver.count(client: client) - countBefore
        guard delivered >= backlog else { throw BenchError("only \(delivered) of \(backlog) notifications arrived") }
        guard try await store.world(AppStore.defaultWorld).dueNotifications(limit: 1).isEmpty else {
            throw BenchError("notifications still due after the drain")
        }
        log(String(format: "drained in %.1f s: store process %.0f µs + receiver %.0f µs CPU per delivery; other processes %.2f cores",
                   drain, cpu.process / Double(backlog) * 1e6, receiverCPU / Double(backlog) * 1e6,
                   max(0, cpu.others - receiverCPU) / drain))

        // 3. The limits again, after the drain; the better of each is kept.
        let signAfter = signSetRate(signer: signer, payloads: payloads)
        let bareAfter = try await barePosts(client: client, receiver: receiver, body: body)
        log(String(format: "after the drain: %.0f sign sets/s, bare POST %.0f /s", signAfter, bareAfter.perSecond))
        signSets = max(signSets, signAfter)
        if bareAfter.perSecond > bare.perSecond { bare = bareAfter }

        await store.shutdown()
        await database.close()
        return Figures(
            signSetsPerSecond: signSets, cores: cores, barePostPerSecond: bare.perSecond, deliveriesPerSecond: Double(backlog) / drain,
            backlog: backlog, drainSeconds: drain, fillSeconds: fill, bodyBytes: body.count,
            storeCPUPerDelivery: cpu.process / Double(backlog), receiverCPUPerDelivery: receiverCPU / Double(backlog),
            clientCPUPerBarePost: bare.clientCPU, receiverCPUPerBarePost: bare.receiverCPU,
            othersDuringDrain: max(0, cpu.others - receiverCPU) / drain)
    }

    /// The JWS payload of `{"signedPayload":"header.payload.signature"}`: the notification's JSON
    /// with its nested transaction and renewal info, as the store signs it.
    static func payload(ofRequestBody body: [UInt8]) throws -> [UInt8] {
        let parts = String(decoding: body, as: UTF8.self).split(separator: ".")
        guard parts.count == 3, let json = Base64URL.decode(parts[1]) else { throw BenchError("not a signed notification body") }
        return json
    }

    /// The three JWS of one delivery per second, one thread, best of a few rounds.
    func signSetRate(signer: JWSSigner, payloads: [[UInt8]]) -> Double {
        var sink = 0
        for payload in payloads { sink &+= signer.sign(payloadJSON: payload).utf8.count }
        var best = 0.0
        for _ in 0..<3 {
            var sets = 0
            let start = Date()
            while Date().timeIntervalSince(start) < seconds / 3 {
                for _ in 0..<50 {
                    for payload in payloads { sink &+= signer.sign(payloadJSON: payload).utf8.count }
                }
                sets += 50
            }
            best = max(best, Double(sets) / Date().timeIntervalSince(start))
        }
        return sink == 42 ? best + 1e-9 : best
    }

    struct BarePosts {
        var perSecond: Double
        /// CPU seconds per POST in this (the client's) process and in the receiver's.
        var clientCPU: Double
        var receiverCPU: Double
    }

    /// POSTs `body` to the receiver for `seconds` with `concurrency` requests in flight.
    func barePosts(client: HTTPClient, receiver: NotificationReceiverProcess, body: [UInt8]) async throws -> BarePosts {
        let buffer = ByteBuffer(bytes: body)
        let url = receiver.url
        // Untimed warm-up: the pool's connections are opened before the window.
        _ = try await posts(client: client, url: url, buffer: buffer, until: Date().addingTimeInterval(min(0.5, seconds / 4)))
        let cpuStart = CPUSample.now(), receiverStart = receiver.cpuSeconds()
        let start = Date()
        let count = try await posts(client: client, url: url, buffer: buffer, until: start.addingTimeInterval(seconds))
        let elapsed = Date().timeIntervalSince(start)
        let cpu = CPUUsage(from: cpuStart, to: .now()), receiverCPU = receiver.cpuSeconds() - receiverStart
        return BarePosts(perSecond: Double(count) / elapsed, clientCPU: cpu.process / Double(count), receiverCPU: receiverCPU / Double(count))
    }

    private func posts(client: HTTPClient, url: String, buffer: ByteBuffer, until deadline: Date) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while Date() < deadline {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.headers.add(name: "User-Agent", value: "OpenStoreKit-Notifications/2.0")
                        request.body = .bytes(buffer)
                        let response = try await client.execute(request, timeout: .seconds(10))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .ok else { throw BenchError("the receiver answered \(response.status.code)") }
                        done += 1
                    }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
    }
}
