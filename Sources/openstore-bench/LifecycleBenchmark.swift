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
    var engine: BenchEngine = .sqlite

    struct Figures {
        var subscribers: Int
        var setupSeconds: Double
        var renewals: Int
        /// From the jump's start until every renewal was durable (the year's catch-up returned).
        var scheduleSeconds: Double
        /// From the jump's start until every renewal was also read back and signed: the figure.
        var totalSeconds: Double
        var emptyLoopSeconds: Double
        var rawSignPerSecond: Double
        /// CPU this process used in the timed window, and CPU other processes took meanwhile.
        var cpu = CPUUsage()
        /// CPU seconds of the PostgreSQL server's processes in the timed window (nil on SQLite or a remote server).
        var serverCPU: Double?
        var total: Double { totalSeconds }
        /// How long signing ran on after the last renewal was stored.
        var signTailSeconds: Double { totalSeconds - scheduleSeconds }
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
        try await ScratchDatabase.using(engine, label: "lifecycle") { try await run(on: $0, log: log) }
    }

    private func run(on scratch: ScratchDatabase, log: (String) -> Void) async throws -> Figures {
        let database = try await scratch.open()
        let app = try StoreApp(bundleId: "com.example.bench", appAppleId: 1, environment: .sandbox, name: "Bench", catalogJSON: Self.catalog)
        let store = try await AppStore.openForBench(database: database, apps: [app], runScheduler: false)
        let processes = await scratch.serverProcesses()
        let world = AppStore.defaultWorld

        // Set-up (not timed in the figure): every subscriber buys the monthly plan.
        let setupStart = Date()
        let perTask = (subscribers + 63) / 64
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<64 {
                group.addTask {
                    for index in min(task * perTask, subscribers)..<min((task + 1) * perTask, subscribers) {
                        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: app.bundleId, productId: "bench.monthly", customer: "subscriber-\(index)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let setupSeconds = Date().timeIntervalSince(setupStart)
        let lastSeqBefore = try await database.highWaterMarks().seq
        log(String(format: "set-up: %d subscriptions bought in %.1f s (%.0f /s)", subscribers, setupSeconds, Double(subscribers) / setupSeconds))

        // The year: the scheduler fires every renewal in time order and stores it. Meanwhile a
        // follower reads each renewal back once it is committed, as `Transaction.updates` and the
        // notification sender do, and signs it on 2 threads of its own (the OS shares the cores
        // between the writer and the signers). The figure runs until the last renewal is signed.
        let signer = JWSSigner(authority: store.authority)
        let signedMs = try await store.world(world).nowMs() + 365 * 86_400_000
        let queue = SignQueue()
        let yearDone = DoneFlag()
        let start = Date()
        let cpuStart = CPUSample.now()
        let serverBefore = processes?.cpuSeconds()
        async let signedBytes = queue.drain(threads: 2) { record in
            var payload = try TransactionPayload(json: Array(record.payload.utf8))
            payload.signedDate = signedMs
            return signer.sign(payloadJSON: payload.jsonBytes).utf8.count
        }
        let year = Task {
            defer { yearDone.set(Date()) }
            _ = try await store.advanceTime(world, byMs: 365 * 86_400_000)
        }
        var keys: [(id: Int64, seq: Int64)] = []
        var cursor = lastSeqBefore
        do {
            while true {
                let finished = yearDone.value != nil
                let page = try await database.transactionsChanged(world: world, afterSeq: cursor, limit: 4096)
                if let last = page.last {
                    cursor = last.seq
                    keys += page.map { ($0.id, $0.seq) }
                    await queue.push(page)
                } else if finished {
                    break
                } else {
                    try await Task.sleep(for: .milliseconds(2))
                }
            }
            try await year.value
        } catch {
            queue.close()
            _ = try? await signedBytes
            throw error
        }
        queue.close()
        let signed = try await signedBytes
        let totalSeconds = Date().timeIntervalSince(start)
        let cpu = CPUUsage(from: cpuStart, to: CPUSample.now())
        let serverCPU = processes.flatMap { p in serverBefore.map { p.cpuSeconds() - $0 } }
        if let note = await store.leaseNote(database: database, world: world) { log(note) }
        let scheduleSeconds = yearDone.value!.timeIntervalSince(start)
        precondition(signed > 0 || keys.isEmpty)

        // The empty loop: the same events, touched and nothing done.
        let emptyStart = Date()
        var checksum: Int64 = 0
        for record in keys { checksum &+= record.id ^ record.seq }
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
            subscribers: subscribers, setupSeconds: setupSeconds, renewals: keys.count,
            scheduleSeconds: scheduleSeconds, totalSeconds: totalSeconds, emptyLoopSeconds: emptyLoopSeconds,
            rawSignPerSecond: rawSign, cpu: cpu, serverCPU: serverCPU)
    }
}

/// Pages of committed renewals handed from the follower to the signing threads.
final class SignQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pages: [ArraySlice<TransactionRecord>] = []
    private var queued = 0
    private var closed = false
    /// Most records waiting to be signed; the follower pauses beyond it (memory stays flat).
    private let capacity = 65_536

    func push(_ page: [TransactionRecord]) async {
        while !tryPush(page) {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    private func tryPush(_ page: [TransactionRecord]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard queued < capacity else { return false }
        // Small slices, so both threads stay busy to the end.
        var start = page.startIndex
        while start < page.endIndex {
            let end = min(start + 256, page.endIndex)
            pages.append(page[start..<end])
            start = end
        }
        queued += page.count
        condition.broadcast()
        return true
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func pop() -> ArraySlice<TransactionRecord>? {
        condition.lock()
        defer { condition.unlock() }
        while pages.isEmpty && !closed { condition.wait() }
        guard !pages.isEmpty else { return nil }
        let page = pages.removeFirst()
        queued -= page.count
        return page
    }

    /// Signs everything pushed until `close()`, on `threads` threads of its own (not the Swift
    /// concurrency pool, which the world actor needs); returns the sum of `work`'s results.
    func drain(threads: Int, _ work: @escaping @Sendable (TransactionRecord) throws -> Int) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
                        let thread = Thread {
                            var total = 0
                            do {
                                while let page = self.pop() {
                                    for record in page { total += try work(record) }
                                }
                                continuation.resume(returning: total)
                            } catch {
                                continuation.resume(throwing: error)
                            }
                        }
                        thread.start()
                    }
                }
            }
            return try await group.reduce(0, +)
        }
    }
}

/// Set once, read from anywhere: when the year's catch-up returned.
final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date?
    func set(_ value: Date) { lock.withLock { date = value } }
    var value: Date? { lock.withLock { date } }
}
