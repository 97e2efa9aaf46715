import Foundation
import Hummingbird
import Logging
import StoreEngine
import StoreModel
import StoreServer
import StoreStorage

/// A server running in a background task on an ephemeral loopback port, stopped by cancelling it.
struct RunningServer: Sendable {
    var port: Int
    var task: Task<Void, any Error>

    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// Starts `run`, which must call its argument with the bound port once it accepts connections.
    static func start(_ run: @escaping @Sendable (@escaping @Sendable (Int) async -> Void) async throws -> Void) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await run { continuation.yield($0) }
        }
        for await port in ports { return RunningServer(port: port, task: task) }
        _ = try await task.value  // ended without binding: surface its error
        throw BenchError("server stopped before it was ready")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The servers the HTTP figures are measured against.
enum BenchServers {
    /// The real store: `StoreHTTPServer` on a fresh SQLite file (WAL, group commit) with the demo apps,
    /// exactly as `openstore serve` runs it. The data folder is removed by `cleanUp`.
    static func store() async throws -> (server: RunningServer, store: AppStore, cleanUp: @Sendable () async -> Void) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("openstore-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))")
        let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
        let store = try await AppStore.open(database: database, apps: try demoApps())
        let http = StoreHTTPServer(store: store, host: "127.0.0.1", port: 0)
        let server = try await RunningServer.start { ready in
            try await http.run(onReady: ready)
        }
        return (server, store, {
            await database.close()
            try? FileManager.default.removeItem(at: folder)
        })
    }

    /// A bare Hummingbird router with one route answering a fixed body: the cost of HTTP alone,
    /// on the same framework, event loops and configuration as the store.
    static func bare() async throws -> RunningServer {
        try await RunningServer.start { ready in
            let router = Router()
            let body = ByteBuffer(string: "{\"status\":\"ok\"}")
            router.get("ping") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
            }
            var logger = Logger(label: "openstore-bench.bare")
            logger.logLevel = .warning
            let app = Application(
                router: router,
                configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "OpenStoreKit"),
                onServerRunning: { channel in await ready(channel.localAddress?.port ?? 0) },
                logger: logger)
            try await app.runService(gracefulShutdownSignals: [])
        }
    }

    /// The two demo apps of `openstore serve`.
    static func demoApps() throws -> [StoreApp] {
        [
            try StoreApp(bundleId: DemoCatalogs.backyardBirdsBundleID, appAppleId: 1_640_000_001, environment: .sandbox,
                         name: "Backyard Birds", catalogJSON: DemoCatalogs.backyardBirds),
            try StoreApp(bundleId: DemoCatalogs.foodTruckBundleID, appAppleId: 1_640_000_002, environment: .sandbox,
                         name: "Food Truck", catalogJSON: DemoCatalogs.foodTruck),
        ]
    }
}
