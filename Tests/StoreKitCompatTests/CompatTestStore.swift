import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OpenStoreKit
import StoreEngine
import StoreModel
import StoreServer
import StoreStorage
import StoreTestSupport

/// A real store on a loopback port (the `StoreHTTPServer` that `openstore serve` runs) selling
/// the two demo apps the fixtures are written for, in a temporary folder removed when it stops.
final class CompatTestStore: Sendable {
    static let backyardBirds = DemoCatalogs.backyardBirdsBundleID
    static let foodTruck = DemoCatalogs.foodTruckBundleID
    /// The test catalog whose yearly plan also sells "monthly with a 12-month commitment" (2026).
    static let commitment = "com.example.commitment"
    static let commitmentCatalog = testCatalogJSON.replacingOccurrences(
        of: #""displayPrice" : "39.99","#,
        with: #""billingPlans" : [ { "billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "47.88", "displayPrice" : "3.99", "internalID" : "BP1", "isEnabled" : true } ], "displayPrice" : "39.99","#)

    let folder: URL
    let store: StoreEngine.AppStore
    let server: LoopbackServer
    let http = HTTPClient(eventLoopGroupProvider: .singleton)

    var url: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

    private init(folder: URL, store: StoreEngine.AppStore, server: LoopbackServer) {
        self.folder = folder
        self.store = store
        self.server = server
    }

    static func start() async throws -> CompatTestStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-compat-\(UUID().uuidString)")
        do {
            let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
            let apps = [
                try StoreApp(bundleId: backyardBirds, appAppleId: 1_640_000_001, environment: .sandbox, name: "Backyard Birds",
                             catalogJSON: DemoCatalogs.backyardBirds),
                try StoreApp(bundleId: foodTruck, appAppleId: 1_640_000_002, environment: .sandbox, name: "Food Truck",
                             catalogJSON: DemoCatalogs.foodTruck),
                try StoreApp(bundleId: commitment, appAppleId: 1_640_000_003, environment: .sandbox, name: "Commitment",
                             catalogJSON: commitmentCatalog),
            ]
            let store = try await StoreEngine.AppStore.open(database: database, apps: apps)
            let http = StoreHTTPServer(store: store, host: "127.0.0.1", port: 0)
            let server = try await LoopbackServer.start { listening in { try await http.run { port in listening(port) } } }
            return CompatTestStore(folder: folder, store: store, server: server)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Runs `body` with a fresh store, and always stops it and removes its folder.
    /// The body runs in the caller's isolation (the fixtures' classes are main-actor ones).
    static func with<T: Sendable>(isolation: isolated (any Actor)? = #isolation,
                                  _ body: (CompatTestStore) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    func stop() async {
        await server.stop()
        await store.shutdown()
        try? await http.shutdown()
        await store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Points the process-wide StoreKit API at this store, as an app's environment would: the
    /// fixtures start detached tasks, which a task-bound connection would not reach. The suites
    /// using it run one test at a time.
    @discardableResult
    func configureApp(_ bundle: String, customer: String, world: String) -> StoreConnection {
        OpenStoreKit.configure(OpenStoreKit.Configuration(
            store: url, bundleID: bundle, customer: customer, world: world, createsCustomer: true,
            requestTimeout: .seconds(20), updatesIdleTimeout: .seconds(20)))
    }

    /// A new world for one test.
    func makeWorld() async throws -> String {
        let name = "w\(UUID().uuidString.prefix(8).lowercased())"
        _ = try await admin(.POST, "/admin/v1/worlds", ["id": name])
        return name
    }

    /// Waits until `count` update feeds are open (a listener began), so what happens next is live.
    func waitForFeeds(_ count: Int) async throws {
        while store.openUpdateFeeds < count { try await Task.sleep(for: .milliseconds(20)) }
    }

    func advance(_ world: String, _ duration: String) async throws {
        try await admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": duration])
    }

    func refund(_ world: String, transaction id: UInt64) async throws {
        try await admin(.POST, "/admin/v1/worlds/\(world)/transactions/\(id)/refund", ["reason": 1])
    }

    func api(_ world: String) -> String { world == "default" ? "/storekit/v1" : "/storekit/v1/worlds/\(world)" }

    /// A purchase made on another device of the customer (plain device API).
    func purchaseElsewhere(_ product: String, bundle: String, customer: String, world: String) async throws {
        try await admin(.POST, api(world) + "/apps/\(bundle)/purchases", ["productId": product, "customer": customer])
    }

    /// Whether the account exists in the world.
    func customerExists(_ customer: String, world: String) async throws -> Bool {
        try await request(.GET, api(world) + "/customers/\(customer)").status == 200
    }

    @discardableResult
    func admin(_ method: HTTPMethod, _ path: String, _ object: [String: Any]? = nil) async throws -> [String: Any] {
        let answer = try await request(method, path, body: try object.map { try JSONSerialization.data(withJSONObject: $0) })
        guard (200..<300).contains(answer.status) else {
            throw CompatFailure("\(method) \(path) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
    }

    func request(_ method: HTTPMethod, _ path: String, body: Data? = nil) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return (Int(response.status.code), Data(bytes.readableBytesView))
    }
}

struct CompatFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Waits until `condition` holds, checking every 20 ms; the test's time limit bounds the wait
/// (no timing of its own, so a slow machine only makes it slower).
func eventually(_ condition: @MainActor () async -> Bool) async throws {
    while !(await condition()) { try await Task.sleep(for: .milliseconds(20)) }
}
