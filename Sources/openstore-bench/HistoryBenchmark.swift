import Foundation
import StoreEngine
import StoreModel
import StoreStorage

/// Issue 4's and 12's figure: a Transaction History page (20 signed transactions) for a customer
/// with 10,000 transactions in a store of 1,000,000, against the same page for a customer with 10,
/// measured on the engine's Server API entry point (auth excluded) beside the bare row read.
/// Those pages are read again and again, so their revisions' signatures are cached (a page is
/// the index's change numbers plus a copy); the cold figure walks the 10k history once by
/// revision token, every page signed afresh, as a client paging through it for the first time.
struct HistoryBenchmark {
    var storeSize: Int
    var bigHistory: Int
    var engine: BenchEngine = .sqlite

    struct Figures {
        var storeSize: Int
        var bigHistory: Int
        var bigP50: Double, bigP99: Double
        var smallP50: Double, smallP99: Double
        var rawReadP50: Double, rawReadP99: Double
        /// Each page of the 10k history read once (revision tokens): 20 transactions signed afresh.
        var coldP50: Double, coldP99: Double, coldPages: Int
        var loadSeconds: Double
        /// CPU seconds of the PostgreSQL server while the pages were read (nil on SQLite).
        var serverCPU: Double?
        var pagesSeconds: Double = 0
        var pages = 0
        var cpu = CPUUsage()
    }

    func run(log: (String) -> Void) async throws -> Figures {
        try await ScratchDatabase.using(engine, label: "history") { try await run(on: $0, log: log) }
    }

    private func run(on scratch: ScratchDatabase, log: (String) -> Void) async throws -> Figures {
        let database = try await scratch.open()
        let app = try StoreApp(bundleId: "com.example.bench", appAppleId: 1, environment: .sandbox, name: "Bench", catalogJSON: LifecycleBenchmark.consumableCatalog)
        let store = try await AppStore.openForBench(database: database, apps: [app], runScheduler: false)
        let processes = await scratch.serverProcesses()

        // Load: real purchases for the two measured customers; the rest of the store in bulk rows.
        let loadStart = Date()
        let template = try require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: app.bundleId, productId: "bench.coins", customer: "small")).transaction?.payload, "purchase")
        for _ in 1..<10 { _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: app.bundleId, productId: "bench.coins", customer: "small")) }
        var nextId: Int64 = 3_000_000_000_000_000
        var nextSeq: Int64 = 1_000_000_000
        func rows(customer: String, count: Int) -> [TransactionRecord] {
            (0..<count).map { _ in
                nextId += 1
                nextSeq += 1
                var payload = template
                payload.transactionId = String(nextId)
                payload.originalTransactionId = String(nextId)
                return TransactionRecord(
                    id: nextId, world: AppStore.defaultWorld, seq: nextSeq, originalId: nextId, bundleId: app.bundleId,
                    customer: customer, productId: "bench.coins", productKind: ProductKind.consumable.rawValue, groupId: nil,
                    purchaseMs: payload.purchaseDate, expiresMs: nil, revokedMs: nil, finished: false, orderId: "B\(nextSeq)",
                    ownership: "PURCHASED", payload: String(decoding: payload.jsonBytes, as: UTF8.self))
            }
        }
        // The first of the big customer's transactions opens its history (the ID used to be computed
        // from the end of the load and named the first of the next customer's, who had 5,000).
        let bigId = String(nextId + 1)
        try await database.write(WriteBatch(transactions: rows(customer: "big", count: bigHistory)))
        var loaded = bigHistory + 10
        while loaded < storeSize {
            let chunk = min(5_000, storeSize - loaded)
            try await database.write(WriteBatch(transactions: rows(customer: "other-\(loaded / 50)", count: chunk)))
            loaded += chunk
        }
        let loadSeconds = Date().timeIntervalSince(loadStart)
        log(String(format: "loaded %d transactions in %.1f s", loaded, loadSeconds))

        let caller = ServerAPICaller(keyId: "BENCH", issuerId: "bench", bundleId: app.bundleId, world: AppStore.defaultWorld)
        let smallId = template.transactionId
        func page(_ anyId: String, revision: String? = nil) async throws -> (ms: Double, page: HistoryResponse) {
            var request = TransactionHistoryRequest()
            request.revision = revision
            let start = DispatchTime.now().uptimeNanoseconds
            let page = try await store.transactionHistory(anyTransactionId: anyId, request: request, version: .v2, caller: caller)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            precondition(!page.signedTransactions.isEmpty)
            return (ms, page)
        }
        // The measured customers have the histories the figures name (the walk below checks the 10k).
        let smallPage = try await page(smallId).page
        guard smallPage.signedTransactions.count == 10, !smallPage.hasMore else { throw BenchError("the small customer's history is not 10 transactions") }
        for _ in 0..<50 { _ = try await page(bigId); _ = try await page(smallId) }
        let serverBefore = processes?.cpuSeconds()
        let cpuStart = CPUSample.now()
        let pagesStart = Date()
        // Alternating, so both customers' pages see the same machine (others' builds come and go).
        // OPENSTORE_BENCH_HISTORY_PAGES lengthens this window for `perf record` (default 1,000 each).
        let rounds = ProcessInfo.processInfo.environment["OPENSTORE_BENCH_HISTORY_PAGES"].flatMap(Int.init) ?? 1_000
        var big: [Double] = [], small: [Double] = []
        for _ in 0..<max(1, rounds) {
            big.append(try await page(bigId).ms)
            small.append(try await page(smallId).ms)
        }
        big.sort()
        small.sort()
        let pagesSeconds = Date().timeIntervalSince(pagesStart)
        let cpu = CPUUsage(from: cpuStart, to: CPUSample.now())
        let serverCPU = processes.flatMap { p in serverBefore.map { p.cpuSeconds() - $0 } }
        if let note = await store.leaseNote(database: database, world: AppStore.defaultWorld) { log(note) }
        var cold: [Double] = []
        var revision: String?
        var walked = 0
        repeat {
            let (ms, next) = try await page(bigId, revision: revision)
            cold.append(ms)
            walked += next.signedTransactions.count
            revision = next.hasMore ? next.revision : nil
        } while revision != nil
        guard walked == bigHistory else { throw BenchError("the big customer's history has \(walked) transactions, not \(bigHistory)") }
        cold.sort()
        var raw: [Double] = []
        for _ in 0..<1_000 {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await database.transaction(id: nextId)
            raw.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        raw.sort()
        await store.shutdown()
        await database.close()
        func pct(_ values: [Double], _ p: Double) -> Double { values[min(values.count - 1, Int(Double(values.count) * p))] }
        return Figures(
            storeSize: loaded, bigHistory: bigHistory, bigP50: pct(big, 0.5), bigP99: pct(big, 0.99),
            smallP50: pct(small, 0.5), smallP99: pct(small, 0.99), rawReadP50: pct(raw, 0.5), rawReadP99: pct(raw, 0.99),
            coldP50: pct(cold, 0.5), coldP99: pct(cold, 0.99), coldPages: cold.count, loadSeconds: loadSeconds,
            serverCPU: serverCPU, pagesSeconds: pagesSeconds, pages: big.count + small.count, cpu: cpu)
    }
}

extension LifecycleBenchmark {
    static let consumableCatalog = """
    { "products" : [ { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "C1",
        "localizations" : [ { "description" : "Coins", "displayName" : "Coins", "locale" : "en_US" } ],
        "productID" : "bench.coins", "referenceName" : "Coins", "type" : "Consumable" } ],
      "settings" : { "_storefront" : "USA", "_locale" : "en_US" }, "subscriptionGroups" : [ ],
      "version" : { "major" : 3, "minor" : 0 } }
    """
}

/// `#require` for a benchmark: stop with a clear message instead of a crash trace.
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw BenchError("missing \(what)") }
    return value
}
