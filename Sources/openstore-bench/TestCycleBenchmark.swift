import Foundation
import OpenStoreKit
import StoreEngine
import StoreKitTest
import StoreModel
import StoreStorage

/// The "test cycle" group (issue #29): what a StoreKitTest test costs here, each figure beside the
/// bare in-process engine calls that do the same work, measured in the same run:
/// - creating an `SKTestSession` from the Backyard Birds catalog, beside creating a world and its
///   customer on an open store;
/// - a whole test: create a session, buy a subscription, force a renewal, read
///   `Transaction.currentEntitlements` through StoreKit, end the session; beside the same purchase,
///   renewal and entitlement read as engine calls.
struct TestCycleBenchmark {
    var cycles: Int

    struct Figures {
        var creation: [Double]
        var bareCreation: [Double]
        var cycle: [Double]
        var bareCycle: [Double]
    }

    static let subscription = "com.example.backyardbirds.pass.premium"

    func run() async throws -> Figures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-sktest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("BackyardBirds.storekit")
        try DemoCatalogs.backyardBirds.write(to: file, atomically: true, encoding: .utf8)

        // The bare engine on its own store, as the session's hosted store runs it.
        let database = try await StoreDatabase.open(path: folder.appendingPathComponent("bare.sqlite").path)
        let bundle = "com.example.bench"
        let store = try await StoreEngine.AppStore.open(database: database, apps: [
            try StoreApp(bundleId: bundle, appAppleId: 1, environment: .sandbox, name: "Bench", catalogJSON: DemoCatalogs.backyardBirds),
        ])
        defer { Task { await store.close() } }

        // Warm-up: the first session starts the hosted store (once per catalog and process).
        _ = try await cycle(file)

        var figures = Figures(creation: [], bareCreation: [], cycle: [], bareCycle: [])
        for round in 0..<cycles {
            figures.creation.append(try Self.time { _ = try SKTestSession(contentsOf: file) })
            let world = "bare-\(round)"
            figures.bareCreation.append(try await Self.time {
                _ = try await store.createWorld(world)
                _ = try await store.world(world).saveCustomer("sktest", storefront: "USA", locale: "en_US")
            })
            figures.cycle.append(try await Self.time { try await cycle(file) })
            let cycleWorld = "bare-cycle-\(round)"
            figures.bareCycle.append(try await Self.time {
                _ = try await store.createWorld(cycleWorld)
                _ = try await store.world(cycleWorld).saveCustomer("sktest", storefront: "USA", locale: "en_US")
                let bought = try await store.world(cycleWorld).purchase(PurchaseRequest(
                    bundleId: bundle, productId: Self.subscription, customer: "sktest"))
                guard let id = bought.transaction?.payload.transactionId else { throw BenchError("no transaction") }
                _ = try await store.world(cycleWorld).forceRenewal(transactionId: id)
                let current = try await store.world(cycleWorld).transactions(bundleId: bundle, customer: "sktest", scope: .entitlements)
                guard current.count == 1 else { throw BenchError("bare cycle: \(current.count) entitlements") }
                try await store.deleteWorld(cycleWorld)
            })
        }
        return figures
    }

    /// One test's worth: the session lives only inside this call.
    private func cycle(_ file: URL) async throws {
        let session = try SKTestSession(contentsOf: file)
        let first = try await session.buyProduct(identifier: Self.subscription)
        try session.forceRenewalOfSubscription(productIdentifier: Self.subscription)
        let current = await session.withStoreKit { () -> [UInt64] in
            var ids: [UInt64] = []
            for await result in Transaction.currentEntitlements {
                if case .verified(let transaction) = result { ids.append(transaction.id) }
            }
            return ids
        }
        guard current.count == 1, current.first != first.id else { throw BenchError("cycle: entitlements \(current)") }
    }

    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return milliseconds(ContinuousClock.now - start)
    }

    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return milliseconds(ContinuousClock.now - start)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
