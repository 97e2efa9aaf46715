import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import OpenStoreKit
import StoreEngine
import StoreModel
import StoreServer
import StoreSigning
import StoreStorage
import StoreTestSupport

/// A test app with every kind of product and offer the client tests need.
let clientCatalogJSON = fixtureCatalog("client")

/// A real store on a loopback port (the same `StoreHTTPServer` `openstore serve` runs), with the
/// two demo apps and the test app, in a temporary folder removed when it stops.
final class ClientTestStore: Sendable {
    static let bundle = "com.example.openstorekit"
    /// The same catalog as `bundle`, in the Production environment.
    static let production = "com.example.openstorekit.live"
    static let foodTruck = DemoCatalogs.foodTruckBundleID
    static let backyardBirds = DemoCatalogs.backyardBirdsBundleID

    let folder: URL
    let store: StoreEngine.AppStore
    let port: Int
    private let server: Locked<LoopbackServer>
    /// Redirects are not followed, so a store page's `303` and its result header are seen.
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(folder: URL, store: StoreEngine.AppStore, port: Int, server: LoopbackServer) {
        self.folder = folder
        self.store = store
        self.port = port
        self.server = Locked(server)
    }

    static func apps() throws -> [StoreApp] {
        var foodTruck = try StoreApp(bundleId: Self.foodTruck, appAppleId: 1_640_000_002, environment: .sandbox,
                                     name: "Food Truck", catalogJSON: DemoCatalogs.foodTruck)
        foodTruck.applicationVersion = "8.2"
        return [
            try StoreApp(bundleId: bundle, appAppleId: 55, environment: .sandbox, name: "Client", catalogJSON: clientCatalogJSON),
            try StoreApp(bundleId: production, appAppleId: 56, environment: .production, name: "Client (App Store)", catalogJSON: clientCatalogJSON),
            try StoreApp(bundleId: Self.backyardBirds, appAppleId: 1_640_000_001, environment: .sandbox, name: "Backyard Birds",
                         catalogJSON: DemoCatalogs.backyardBirds),
            foodTruck,
        ]
    }

    static func start() async throws -> ClientTestStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-client-\(UUID().uuidString)")
        do {
            let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
            let store = try await StoreEngine.AppStore.open(database: database, apps: try apps())
            let server = try await serve(store, port: 0)
            return ClientTestStore(folder: folder, store: store, port: server.port, server: server)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private static func serve(_ store: StoreEngine.AppStore, port: Int) async throws -> LoopbackServer {
        let server = StoreHTTPServer(store: store, host: "127.0.0.1", port: port)
        return try await LoopbackServer.start { listening in { try await server.run { port in listening(port) } } }
    }

    /// Runs `body` with a fresh store, and always stops it and removes its folder.
    static func with<T: Sendable>(_ body: (ClientTestStore) async throws -> T) async throws -> T {
        try await withStarted(start, stop: { await $0.stop() }, body)
    }

    func stop() async {
        await server.value.stop()
        await store.shutdown()
        try? await http.shutdown()
        await store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops answering HTTP (open connections drop) while the store itself keeps running.
    func dropHTTP() async {
        await server.value.stop()
    }

    /// Serves HTTP again on the same port.
    func resumeHTTP() async throws {
        server.value = try await Self.serve(store, port: port)
    }

    // MARK: Clients

    /// A client connection for `customer` in `world`, created as an account on first contact.
    func connection(_ customer: String, world: String = "default", bundle: String = ClientTestStore.bundle,
                    storefront: String? = nil, rootCertificate: Data? = nil, createsCustomer: Bool = true,
                    appVersion: String = "1.0") -> StoreConnection {
        StoreConnection(OpenStoreKit.Configuration(
            store: url, bundleID: bundle, customer: customer, world: world, storefront: storefront,
            rootCertificate: rootCertificate, createsCustomer: createsCustomer, appVersion: appVersion,
            requestTimeout: .seconds(20), updatesIdleTimeout: .seconds(20)))
    }

    /// A new world for one test.
    func makeWorld(_ name: String = "w\(UUID().uuidString.prefix(8).lowercased())") async throws -> String {
        _ = try await admin(.POST, "/admin/v1/worlds", ["id": name])
        return name
    }

    var openUpdateFeeds: Int { store.openUpdateFeeds }

    /// Waits until `count` update feeds are open on the store (a client's `for await` began
    /// listening), so a change made next is a live one. Polls without a time limit of its own:
    /// the test's own time limit bounds it.
    func waitForFeeds(_ count: Int) async throws {
        while store.openUpdateFeeds < count { try await Task.sleep(for: .milliseconds(20)) }
    }

    // MARK: Plain HTTP (the admin API, and devices other than the client under test)

    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    @discardableResult
    func request(_ method: HTTPMethod, _ path: String, body: Data? = nil, contentType: String = "application/json",
                 headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
    }

    /// A JSON call that must succeed.
    @discardableResult
    func admin(_ method: HTTPMethod, _ path: String, _ object: [String: Any]? = nil) async throws -> [String: Any] {
        let answer = try await request(method, path, body: try object.map { try JSONSerialization.data(withJSONObject: $0) })
        guard (200..<300).contains(answer.status) else {
            throw TestFailure("\(method) \(path) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return answer.json
    }

    /// A purchase made by another device of the customer (plain device API).
    @discardableResult
    func purchaseElsewhere(_ product: String, customer: String, world: String = "default", bundle: String = ClientTestStore.bundle) async throws -> [String: Any] {
        try await admin(.POST, Self.api(world) + "/apps/\(bundle)/purchases", ["productId": product, "customer": customer])
    }

    static func api(_ world: String) -> String { world == "default" ? "/storekit/v1" : "/storekit/v1/worlds/\(world)" }

    /// A promotional-offer signature (V1) made with a Server API key of the store, as a developer's server makes it.
    func promotionalOfferV1(product: String, offer: String, world: String) async throws -> (keyID: String, nonce: UUID, signature: Data, timestamp: Int) {
        let key = try await store.world(world).createAPIKey(bundleId: Self.bundle)
        let nonce = UUID()
        let timestamp = Int(Date().timeIntervalSince1970 * 1000)
        let signature = try PromotionalOfferSignature.sign(
            privateKeyP8: key.privateKeyP8, bundleId: Self.bundle, keyId: key.key.keyId, productId: product, offerId: offer,
            appAccountToken: "", nonce: nonce, timestamp: Int64(timestamp))
        return (key.key.keyId, nonce, Data(base64Encoded: signature) ?? Data(), timestamp)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
