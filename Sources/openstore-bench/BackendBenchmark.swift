import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import StoreEngine
import StoreModel
import StoreSigning
import StoreShared
import SubscriptionBackend

/// The subscription backend (#14's Benchmark section), on a real SQLite file in a temporary
/// folder and real ES256 data from StoreSigning's authority:
///
/// - **ingest**: SUBSCRIBED notifications verified (three JWS each: the notification, its
///   transaction, its renewal info) and committed, one at a time and with many in flight; the
///   limit is raw P-256 verify ÷ 3, measured in the same run (per core, and × cores);
/// - **customer info**: `GET /v1/customers/{id}` over one keep-alive loopback connection with
///   `customers` customers stored, beside `GET /healthz` of the same server (the bare route).
///
/// Reconcile after a missed day is `BackendReconcileBenchmark`, below.
struct BackendBenchmark {
    var customers: Int
    var timedIngest: Int
    var lookups: Int
    var concurrency: Int
    /// `--database`: ingest with `concurrency` in flight also on this PostgreSQL server.
    var postgresURL: String?

    struct Figures {
        var rawVerify: Double
        var sequential: Double
        var concurrent: Double
        var postgresConcurrent: Double?
        var customers: Int
        var infoP50: Double
        var infoP99: Double
        var healthP99: Double
        var infoBytes: Int
        /// Resident memory (bytes) half-way through and after all of the fill's notifications, and
        /// half-way through and after all of one customer-info read per stored customer.
        var ingestRSS: (half: Int, end: Int)
        var readRSS: (half: Int, end: Int)
        var readsPerSecond: Double
        /// Milliseconds: MRR movement by day over a year, realized LTV cohorts by month over a
        /// year, and the read both make (every row, without signatures) alone.
        var chartMovementMs: Double = 0
        var chartCohortMs: Double = 0
        var chartReadMs: Double = 0
        var chartRows = 0
    }

    static let bundleId = "com.example.bench.backend"

    static var quiet: Logger {
        var quiet = Logger(label: "bench.backend")
        quiet.logLevel = .critical
        return quiet
    }

    static func backend(_ database: BackendDatabase, trusting authority: CertificateAuthority) throws -> SubscriptionBackend {
        let app = AppConfiguration(bundleId: Self.bundleId, environments: ["Sandbox"], trustAppleRoot: false)
        return try SubscriptionBackend(configuration: BackendConfiguration(apps: [app], reconcileIntervalSeconds: 0),
                                       database: database, extraRootsDER: [authority.rootDER], logger: quiet)
    }

    func run(log: (String) -> Void) async throws -> Figures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-backend-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try CertificateAuthority.generate()
        let signer = JWSSigner(authority: authority)
        let database = try await BackendDatabase.open(path: folder.appendingPathComponent("backend.sqlite").path, logger: Self.quiet)
        var figures: Figures
        do {
            figures = try await measure(backend: Self.backend(database, trusting: authority), signer: signer, authority: authority, log: log)
            await database.close()
        } catch {
            await database.close()
            throw error
        }
        if let postgresURL {
            figures.postgresConcurrent = try await ScratchDatabase.using(.postgres(url: postgresURL), label: "backend") { scratch in
                let database = try await BackendDatabase.open(scratch.url, logger: Self.quiet)
                do {
                    let backend = try Self.backend(database, trusting: authority)
                    let payloads = (0..<timedIngest).map { notification(signer, index: $0) }
                    let rate = try await Self.ingest(payloads, into: backend, inFlight: concurrency)
                    log("ingest on PostgreSQL, \(concurrency) in flight: \(Report.rate(rate)) notifications/s")
                    await database.close()
                    return rate
                } catch {
                    await database.close()
                    throw error
                }
            }
        }
        return figures
    }

    /// Notifications per second through `receiveNotification`, `inFlight` at a time.
    static func ingest(_ payloads: [String], into backend: SubscriptionBackend, inFlight: Int) async throws -> Double {
        let start = NIODeadline.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            var iterator = payloads.makeIterator()
            for _ in 0..<inFlight {
                guard let payload = iterator.next() else { break }
                group.addTask { _ = try await backend.receiveNotification(bundleId: Self.bundleId, signedPayload: payload) }
            }
            while try await group.next() != nil {
                if let payload = iterator.next() {
                    group.addTask { _ = try await backend.receiveNotification(bundleId: Self.bundleId, signedPayload: payload) }
                }
            }
        }
        return Double(payloads.count) / (Double(NIODeadline.now().uptimeNanoseconds - start) / 1e9)
    }

    private func measure(backend: SubscriptionBackend, signer: JWSSigner, authority: CertificateAuthority,
                         log: (String) -> Void) async throws -> Figures {
        // The limit: raw P-256 verify of a notification-sized signing input, one thread.
        let sample = Array(notification(signer, index: 0).utf8)
        let key = authority.leafPrivateKey
        let signature = try key.signature(for: sample)
        let rawVerify = RateMeter(rounds: 3, roundSeconds: 0.5).measure([
            .init(name: "raw verify") { key.publicKey.isValidSignature(signature, for: sample) ? 1 : 0 },
        ])[0]

        var next = 0
        func batch(_ count: Int) -> [String] {
            defer { next += count }
            return (next..<(next + count)).map { notification(signer, index: $0) }
        }
        let sequential = try await Self.ingest(batch(timedIngest), into: backend, inFlight: 1)
        log("ingest, one in flight: \(Report.rate(sequential)) notifications/s (\(timedIngest) notifications)")
        let concurrent = try await Self.ingest(batch(timedIngest), into: backend, inFlight: concurrency)
        log("ingest, \(concurrency) in flight: \(Report.rate(concurrent)) notifications/s")
        // Fill to `customers` (one customer per notification, linked by its appAccountToken), untimed,
        // reading resident memory half-way and at the end.
        let half = customers / 2
        var ingestHalf = ProcessMemory.residentBytes()
        while next < customers {
            let size = next < half ? min(5_000, half - next) : min(5_000, customers - next)
            _ = try await Self.ingest(batch(size), into: backend, inFlight: concurrency)
            if next == half { ingestHalf = ProcessMemory.residentBytes() }
        }
        let ingestEnd = ProcessMemory.residentBytes()
        log("\(next) customers stored; resident memory \(ProcessMemory.mib(ingestHalf)) half-way, \(ProcessMemory.mib(ingestEnd)) at the end")

        let (info, health, bytes) = try await lookupLatencies(backend: backend, stored: next)
        let (readRSS, readRate) = try await readEveryCustomer(backend: backend, stored: next)
        log("customer info read for all \(next) customers at \(Report.rate(readRate))/s; resident memory \(ProcessMemory.mib(readRSS.half)) half-way, \(ProcessMemory.mib(readRSS.end)) at the end")
        let charts = try await chartTimes(backend: backend)
        log(String(format: "charts: MRR movement by day for a year %.1f ms, LTV cohorts by month %.1f ms; their read alone %.1f ms (%d rows)",
                   charts.movement, charts.cohort, charts.read, charts.rows))
        var figures = Figures(rawVerify: rawVerify, sequential: sequential, concurrent: concurrent, customers: next,
                       infoP50: Self.percentile(info, 0.5), infoP99: Self.percentile(info, 0.99),
                       healthP99: Self.percentile(health, 0.99), infoBytes: bytes,
                       ingestRSS: (ingestHalf, ingestEnd), readRSS: readRSS, readsPerSecond: readRate)
        (figures.chartMovementMs, figures.chartCohortMs, figures.chartReadMs, figures.chartRows) = charts
        return figures
    }

    /// The best of three of each: a chart as the dashboard asks for it, and the read alone.
    private func chartTimes(backend: SubscriptionBackend) async throws -> (movement: Double, cohort: Double, read: Double, rows: Int) {
        func best(_ body: () async throws -> Void) async throws -> Double {
            var times: [Double] = []
            for _ in 0..<3 {
                let start = NIODeadline.now().uptimeNanoseconds
                try await body()
                times.append(Double(NIODeadline.now().uptimeNanoseconds - start) / 1e6)
            }
            return times.min() ?? 0
        }
        var rows = 0
        let read = try await best { rows = try await backend.chartRead() }
        let movement = try await best {
            _ = try await backend.chart("mrr_movement", fields: [("resolution", "day"), ("from", Self.yearAgo())])
        }
        let cohort = try await best {
            _ = try await backend.chart("ltv_per_customer", fields: [("resolution", "month"), ("from", Self.yearAgo())])
        }
        return (movement, cohort, read, rows)
    }

    /// `YYYY-MM-DD` 364 days before today (UTC).
    static func yearAgo() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date().addingTimeInterval(-364 * 86_400))
    }

    /// Customer info for every stored customer once, `concurrency` at a time, in process.
    private func readEveryCustomer(backend: SubscriptionBackend, stored: Int) async throws -> ((half: Int, end: Int), Double) {
        let start = NIODeadline.now().uptimeNanoseconds
        var half = 0
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<stored {
                if index >= concurrency { try await group.next() }
                if index == stored / 2 { half = ProcessMemory.residentBytes() }
                group.addTask {
                    guard try await backend.customerInfo(appUserId: Self.user(index)) != nil else {
                        throw BenchError("customer \(index) is missing")
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(NIODeadline.now().uptimeNanoseconds - start) / 1e9
        return ((half, ProcessMemory.residentBytes()), Double(stored) / seconds)
    }

    /// Customer info and the bare route, alternately, over one keep-alive connection.
    private func lookupLatencies(backend: SubscriptionBackend, stored: Int) async throws -> ([Double], [Double], Int) {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let server = BackendHTTPServer(backend: backend, reconciler: Reconciler(backend: backend, http: http),
                                       dispatcher: WebhookDispatcher(backend: backend, http: http))
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: server.makeRouter(), configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "bench-backend"),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: { var l = Logger(label: "bench.backend.http"); l.logLevel = .critical; return l }())
        let task = Task { try await application.runService() }
        defer { task.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchError("the backend's server did not start") }
        let base = "http://127.0.0.1:\(port)"
        var generator = SystemRandomNumberGenerator()
        var info: [Double] = [], health: [Double] = []
        var bytes = 0
        func timedGet(_ path: String) async throws -> (Double, Int) {
            let start = NIODeadline.now().uptimeNanoseconds
            let response = try await http.execute(HTTPClientRequest(url: base + path), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            let ms = Double(NIODeadline.now().uptimeNanoseconds - start) / 1e6
            guard response.status == .ok else { throw BenchError("GET \(path) answered \(response.status.code)") }
            return (ms, body.readableBytes)
        }
        for round in 0..<(lookups + 50) {
            let user = Self.user(Int.random(in: 0..<stored, using: &generator))
            let (a, size) = try await timedGet("/v1/customers/\(user)")
            let (b, _) = try await timedGet("/healthz")
            if round >= 50 {  // the first ones warm the connection and caches
                info.append(a)
                health.append(b)
                bytes = size
            }
        }
        task.cancel()
        _ = try? await task.value
        try await http.shutdown()
        return (info, health, bytes)
    }

    static func user(_ index: Int) -> String {
        String(format: "00000000-0000-4000-8000-%012x", index)
    }

    /// A SUBSCRIBED notification for customer `index`, signed as a store signs it.
    private func notification(_ signer: JWSSigner, index: Int) -> String {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let id = String(2_100_000_000_000_000 + index)
        let transaction: [String: Any] = [
            "transactionId": id, "originalTransactionId": id, "bundleId": Self.bundleId, "productId": "bench.plus.monthly",
            "purchaseDate": now, "originalPurchaseDate": now, "expiresDate": now + 30 * 86_400_000, "type": "Auto-Renewable Subscription",
            "inAppOwnershipType": "PURCHASED", "signedDate": now, "environment": "Sandbox", "transactionReason": "PURCHASE",
            "currency": "USD", "price": 4990, "storefront": "USA", "storefrontId": "143441", "quantity": 1,
            "subscriptionGroupIdentifier": "plus", "appAccountToken": Self.user(index), "webOrderLineItemId": id,
        ]
        let renewal: [String: Any] = [
            "originalTransactionId": id, "productId": "bench.plus.monthly", "autoRenewProductId": "bench.plus.monthly",
            "autoRenewStatus": 1, "signedDate": now, "environment": "Sandbox", "recentSubscriptionStartDate": now,
            "renewalDate": now + 30 * 86_400_000,
        ]
        func sign(_ object: [String: Any]) -> String {
            signer.sign(payloadJSON: (try? JSONSerialization.data(withJSONObject: object, options: [])) ?? Data())
        }
        return sign([
            "notificationType": "SUBSCRIBED", "subtype": "INITIAL_BUY", "notificationUUID": UUID().uuidString.lowercased(),
            "signedDate": now, "version": "2.0",
            "data": ["bundleId": Self.bundleId, "environment": "Sandbox", "signedTransactionInfo": sign(transaction),
                     "signedRenewalInfo": sign(renewal)] as [String: Any],
        ])
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }
}

/// Reconcile after a missed day (#14's Benchmark): a real store (`StoreHTTPServer`, SQLite, the
/// demo apps) with `customers` Backyard Birds Pass subscribers, each known to a backend through
/// the app's post of its transaction; the backend misses a day of the store's clock, then one
/// reconcile pass runs through the store's Server API over loopback (Notification History for
/// the day, Transaction History per known customer, statuses of uncertain subscriptions). The
/// limit (#33): the same number of bare HTTP round trips to the same server, as many at once as
/// the pass runs customers at once (`reconcileConcurrency`), since the pass makes at least one
/// Server API call per customer.
struct BackendReconcileBenchmark {
    var customers: Int

    struct Figures {
        var customers: Int
        var seconds: Double
        var transactionsSeen: Int
        var errors: Int
        var bareSeconds: Double
        var concurrency: Int
    }

    static let product = "com.example.backyardbirds.pass.individual"

    func run(log: (String) -> Void) async throws -> Figures {
        let (server, store, cleanUp) = try await BenchServers.store()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-reconcile-\(UUID().uuidString)")
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        var database: BackendDatabase?
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bundle = DemoCatalogs.backyardBirdsBundleID
            let key = try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: bundle)
            let keyFile = folder.appendingPathComponent("AuthKey.p8").path
            try Data(key.privateKeyP8.utf8).write(to: URL(fileURLWithPath: keyFile))
            let app = AppConfiguration(
                bundleId: bundle, appAppleId: 1_640_000_001, environments: ["Sandbox"], trustAppleRoot: false,
                apiKey: APIKeyConfiguration(privateKeyFile: keyFile, keyId: key.key.keyId, issuerId: key.key.issuerId),
                apiBaseURL: "http://127.0.0.1:\(server.port)")
            let opened = try await BackendDatabase.open(path: folder.appendingPathComponent("backend.sqlite").path)
            database = opened
            var quiet = Logger(label: "bench.reconcile")
            quiet.logLevel = .critical
            let backend = try SubscriptionBackend(configuration: BackendConfiguration(apps: [app], reconcileIntervalSeconds: 0),
                                                  database: opened, extraRootsDER: [store.authority.rootDER], logger: quiet)
            let reconciler = Reconciler(backend: backend, http: http)

            // Subscribers, each posted by "the app" so the backend knows them (untimed).
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = 0
                func add() {
                    let index = next
                    next += 1
                    group.addTask {
                        let customer = "reconcile-\(index)"
                        let outcome = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: bundle, productId: Self.product, customer: customer))
                        guard let signed = outcome.transaction?.jws else { throw BenchError("purchase \(index) made no transaction") }
                        _ = try await backend.receiveTransaction(appUserId: customer, signedTransaction: signed)
                    }
                }
                for _ in 0..<min(32, customers) { add() }
                while try await group.next() != nil { if next < customers { add() } }
            }
            log("\(customers) subscribers bought and known to the backend")
            let settle = await reconciler.reconcile()  // stores each customer's revision
            log("first pass (revisions stored): \(settle.transactionsSeen) transactions, \(settle.errors.count) errors")

            _ = try await store.advanceTime(AppStore.defaultWorld, by: .fixed(ms: 86_400_000))
            let start = NIODeadline.now().uptimeNanoseconds
            let report = await reconciler.reconcile()
            let seconds = Double(NIODeadline.now().uptimeNanoseconds - start) / 1e9
            log("after a missed day: \(String(format: "%.2f", seconds)) s, \(report.transactionsSeen) transactions seen, \(report.subscriptionsChecked) statuses, \(report.errors.count) errors")

            // The limit: as many bare round trips to the same server, as many at once as the pass.
            let (concurrency, total) = (backend.configuration.reconcileConcurrency, customers)
            let bareStart = NIODeadline.now().uptimeNanoseconds
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<concurrency {
                    group.addTask {
                        for _ in stride(from: lane, to: total, by: concurrency) {
                            let response = try await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/healthz"), timeout: .seconds(10))
                            _ = try await response.body.collect(upTo: 1 << 16)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let bareSeconds = Double(NIODeadline.now().uptimeNanoseconds - bareStart) / 1e9
            try await http.shutdown()
            await opened.close()
            await server.stop()
            await cleanUp()
            try? FileManager.default.removeItem(at: folder)
            return Figures(customers: customers, seconds: seconds, transactionsSeen: report.transactionsSeen,
                           errors: report.errors.count, bareSeconds: bareSeconds, concurrency: concurrency)
        } catch {
            try? await http.shutdown()
            await database?.close()
            await server.stop()
            await cleanUp()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }
}

