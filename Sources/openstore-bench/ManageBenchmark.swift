import Foundation
import StoreEngine
import StoreModel
import StoreServer

/// The web Transaction Manager's heaviest page: one customer with 1,000 transactions (a monthly
/// Pass renewed for years, and consumables), rendered as `GET /manage/customer` renders it —
/// engine reads, the page's transactions signed, HTML — on one thread, on a real store (SQLite).
struct ManageBenchmark {
    var renders: Int
    var warmUp: Int
    var transactions = 1_000

    struct Figures {
        var p50: Double
        var p99: Double
        var bytes: Int
        var transactions: Int
        var externalRequests: [String]
    }

    func run(log: (String) -> Void) async throws -> Figures {
        let (server, store, cleanUp) = try await BenchServers.store()
        do {
            let figures = try await measure(store, log: log)
            await server.stop()
            await cleanUp()
            return figures
        } catch {
            await server.stop()
            await cleanUp()
            throw error
        }
    }

    private func measure(_ store: AppStore, log: (String) -> Void) async throws -> Figures {
        let bundle = DemoCatalogs.backyardBirdsBundleID, customer = "bench-manage"
        func buy(_ product: String) async throws {
            _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: bundle, productId: product, customer: customer))
        }
        try await buy("com.example.backyardbirds.pass.premium")
        _ = try await store.advanceTime(AppStore.defaultWorld, by: try DurationParser.parse("P8Y"))
        var count = try await store.world(AppStore.defaultWorld).customerHistory(bundleId: bundle, customer: customer, limit: 0).total
        while count < transactions {
            try await buy("com.example.backyardbirds.sunflowerseeds")
            count += 1
        }
        log("customer with \(count) transactions (a Pass renewed monthly for 8 years, and sunflower seeds)")
        var html = ""
        for _ in 0..<warmUp { html = try await ManageRendering.customerPage(store: store, customer: customer, bundleId: bundle, world: AppStore.defaultWorld) }
        var nanoseconds: [UInt64] = []
        nanoseconds.reserveCapacity(renders)
        let cpuBefore = CPUSample.now(), wallBefore = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<renders {
            let start = DispatchTime.now().uptimeNanoseconds
            html = try await ManageRendering.customerPage(store: store, customer: customer, bundleId: bundle, world: AppStore.defaultWorld)
            nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        // CPU per render holds when other work shares the cores; the wall-clock p99 does not.
        let cpuAfter = CPUSample.now(), wall = Double(DispatchTime.now().uptimeNanoseconds - wallBefore) / 1e9
        let ours = cpuAfter.process - cpuBefore.process
        log(String(format: "  CPU per render %.3f ms (this process, every thread); during the renders this process used %.2f cores, others %.2f",
                   ours / Double(renders) * 1e3, ours / wall, max(0, (cpuAfter.machineBusy - cpuBefore.machineBusy) - ours) / wall))
        guard html.contains("Transactions (\(count))") else { throw BenchError("the customer page does not show \(count) transactions") }
        nanoseconds.sort()
        func percentile(_ q: Double) -> Double { Double(nanoseconds[min(nanoseconds.count - 1, Int(Double(nanoseconds.count) * q))]) / 1e6 }
        let figures = Figures(p50: percentile(0.5), p99: percentile(0.99), bytes: html.utf8.count, transactions: count,
                              externalRequests: ExternalReferences(html).requests)
        log(String(format: "customer page p50 %.3f ms, p99 %.3f ms, ", figures.p50, figures.p99) + ViewsBenchmark.kilobytes(figures.bytes)
            + ", \(figures.externalRequests.count) external request(s)")
        // Where the time goes: the engine reads on their own (p50 of 50 each).
        func p50(_ work: () async throws -> Void) async rethrows -> Double {
            var times: [UInt64] = []
            for _ in 0..<50 {
                let start = DispatchTime.now().uptimeNanoseconds
                try await work()
                times.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            return Double(times.sorted()[25]) / 1e6
        }
        let reads = try await p50 { _ = try await ManageRendering.customerPageData(store: store, customer: customer, bundleId: bundle, world: AppStore.defaultWorld) }
        let prepared = try await ManageRendering.customerPageData(store: store, customer: customer, bundleId: bundle, world: AppStore.defaultWorld)
        let writing = await p50 { _ = prepared.html() }
        log(String(format: "  p50 halves: reads and signing %.3f ms, writing the HTML %.3f ms", reads, writing))
        let history = try await p50 { _ = try await store.world(AppStore.defaultWorld).customerHistory(bundleId: bundle, customer: customer, limit: 10) }
        let statuses = try await p50 { _ = try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: bundle, customer: customer) }
        let messages = try await p50 { _ = try await store.world(AppStore.defaultWorld).allMessages(bundleId: bundle, customer: customer) }
        let app = try await p50 { _ = try await store.world(AppStore.defaultWorld).existingAppTransaction(bundleId: bundle, customer: customer) }
        log(String(format: "  of which p50: customerHistory %.3f ms, subscriptionStatuses %.3f ms, allMessages %.3f ms, app transaction %.3f ms",
                   history, statuses, messages, app))
        return figures
    }
}
