import Crypto
import Foundation
import StoreEngine
import StoreModel
import StoreSigning
import StoreStorage

/// Issue 3's figure: N monthly subscribers through one simulated year (≈ 12 × N renewals), each
/// renewal decided by the scheduler, stored (transaction, chain state and event, durably) and
/// signed, measured beside an empty loop over the same events and the raw signing rate.
struct LifecycleBenchmark {
    var subscribers: Int

    struct Figures {
        var subscribers: Int
        var setupSeconds: Double
        var renewals: Int
        var scheduleSeconds: Double
        var signSeconds: Double
        var emptyLoopSeconds: Double
        var rawSignPerSecond: Double
        /// CPU this process used in each timed phase, and CPU other processes took meanwhile.
        var scheduleCPU = CPUUsage()
        var signCPU = CPUUsage()
        var total: Double { scheduleSeconds + signSeconds }
    }

    static let catalog = """
    { "products" : [ ], "settings" : { "_storefront" : "USA", "_locale" : "en_US", "_timeRate" : 0 },
      "subscriptionGroups" : [ { "id" : "BENCH", "localizations" : [ ], "name" : "Bench", "subscriptions" : [
        { "displayPrice" : "4.99", "familyShareable" : false, "groupNumber" : 1, "internalID" : "M1",
          "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ],
          "productID" : "bench.monthly", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "Monthly",
          "subscriptionGroupID" : "BENCH", "type" : "RecurringSubscription" } ] } ],
      "version" : { "major" : 3, "minor" : 0 } }
    """

    func run(log: (String) -> Void) async throws -> Figures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-lifecycle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
        let app = try StoreApp(bundleId: "com.example.bench", appAppleId: 1, environment: .sandbox, name: "Bench", catalogJSON: Self.catalog)
        let store = try await AppStore.open(database: database, apps: [app], runScheduler: false)
        let world = AppStore.defaultWorld

        // Set-up (not timed in the figure): every subscriber buys the monthly plan.
        let setupStart = Date()
        let perTask = (subscribers + 63) / 64
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for index in min(task * perTask, subscribers)..<min((task + 1) * perTask, subscribers) {
                        _ = try await store.purchase(PurchaseRequest(bundleId: app.bundleId, productId: "bench.monthly", customer: "subscriber-\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let setupSeconds = Date().timeIntervalSince(setupStart)
        let lastSeqBefore = try await database.highWaterMarks().seq
        log(String(format: "set-up: %d subscriptions bought in %.1f s (%.0f /s)", subscribers, setupSeconds, Double(subscribers) / setupSeconds))

        // The year: the scheduler fires every renewal in time order and stores it.
        let scheduleStart = Date()
        let scheduleCPUStart = CPUSample.now()
        _ = try await store.advanceTime(world, byMs: 365 * 86_400_000)
        let scheduleSeconds = Date().timeIntervalSince(scheduleStart)
        let scheduleCPU = CPUUsage(from: scheduleCPUStart, to: CPUSample.now())

        // Each renewal signed, as Transaction.updates and notifications hand it out (2 cores).
        let signStart = Date()
        let signCPUStart = CPUSample.now()
        var renewals: [TransactionRecord] = []
        var cursor = lastSeqBefore
        while true {
            let page = try await database.transactionsChanged(world: world, afterSeq: cursor, limit: 20_000)
            guard let last = page.last else { break }
            renewals += page
            cursor = last.seq
        }
        let signer = JWSSigner(authority: store.authority)
        let now = try await store.nowMs(world)
        let halves = [Array(renewals.prefix(renewals.count / 2)), Array(renewals.dropFirst(renewals.count / 2))]
        let signed = try await withThrowingTaskGroup(of: Int.self) { group in
            for half in halves {
                group.addTask {
                    var bytes = 0
                    for record in half {
                        var payload = try TransactionPayload(json: Array(record.payload.utf8))
                        payload.signedDate = now
                        bytes += signer.sign(payloadJSON: payload.jsonBytes).utf8.count
                    }
                    return bytes
                }
            }
            return try await group.reduce(0, +)
        }
        let signSeconds = Date().timeIntervalSince(signStart)
        let signCPU = CPUUsage(from: signCPUStart, to: CPUSample.now())
        precondition(signed > 0 || renewals.isEmpty)

        // The empty loop: the same events, touched and nothing done.
        let emptyStart = Date()
        var checksum: Int64 = 0
        for record in renewals { checksum &+= record.id ^ record.seq }
        let emptyLoopSeconds = max(Date().timeIntervalSince(emptyStart), 1e-9)
        if checksum == 42 { log("") }

        // The physical limit for the signing part: raw P-256 signatures per second on one core.
        let key = P256.Signing.PrivateKey()
        let message = Array(repeating: UInt8(7), count: 600)
        let rawStart = Date()
        var rawCount = 0
        while Date().timeIntervalSince(rawStart) < 1 {
            _ = try key.signature(for: message)
            rawCount += 1
        }
        let rawSign = Double(rawCount) / Date().timeIntervalSince(rawStart)

        await store.shutdown()
        await database.close()
        return Figures(
            subscribers: subscribers, setupSeconds: setupSeconds, renewals: renewals.count,
            scheduleSeconds: scheduleSeconds, signSeconds: signSeconds, emptyLoopSeconds: emptyLoopSeconds,
            rawSignPerSecond: rawSign, scheduleCPU: scheduleCPU, signCPU: signCPU)
    }
}
