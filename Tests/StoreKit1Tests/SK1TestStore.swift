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

/// A real store on a loopback port (the `StoreHTTPServer` that `openstore serve` runs) selling
/// `Tests/Fixtures/storekit1.storekit`, in a temporary folder removed when it stops. The
/// StoreKit 1 code under test reaches it only over HTTP, through `import StoreKit`.
final class SK1TestStore: Sendable {
    static let bundle = "com.example.paywall"
    static let sharedSecret = "0penStoreKitPaywallSecret42"

    let folder: URL
    let store: StoreEngine.AppStore
    let port: Int
    private let server: LoopbackServer
    let http = HTTPClient(eventLoopGroupProvider: .singleton)

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Where this store's tests keep their receipt files.
    var receipts: URL { folder.appendingPathComponent("receipts", isDirectory: true) }

    private init(folder: URL, store: StoreEngine.AppStore, port: Int, server: LoopbackServer) {
        self.folder = folder
        self.store = store
        self.port = port
        self.server = server
    }

    static func start() async throws -> SK1TestStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-sk1-\(UUID().uuidString)")
        do {
            let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
            let app = try StoreApp(bundleId: bundle, appAppleId: 77, environment: .sandbox, name: "Paywall",
                                   catalogJSON: fixtureCatalog("storekit1"))
            let store = try await StoreEngine.AppStore.open(database: database, apps: [app])
            let http = StoreHTTPServer(store: store, host: "127.0.0.1", port: 0)
            let server = try await LoopbackServer.start { listening in { try await http.run { port in listening(port) } } }
            let started = SK1TestStore(folder: folder, store: store, port: server.port, server: server)
            try await started.admin(.PUT, "/admin/v1/apps/\(bundle)/shared-secret", ["sharedSecret": sharedSecret])
            return started
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Runs `body` with a fresh store, and always stops it and removes its folder.
    static func with<T: Sendable>(_ body: (SK1TestStore) async throws -> T) async throws -> T {
        try await withStarted(start, stop: { await $0.stop() }, body)
    }

    func stop() async {
        await server.stop()
        await store.shutdown()
        try? await http.shutdown()
        await store.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A "device" signed in as `customer` in `world`: a connection of its own (so its own
    /// `SKPaymentQueue.default()`), created as an account on first contact.
    func device(_ customer: String, world: String) -> StoreConnection {
        StoreConnection(OpenStoreKit.Configuration(
            store: url, bundleID: Self.bundle, customer: customer, world: world, createsCustomer: true,
            requestTimeout: .seconds(20), updatesIdleTimeout: .seconds(20)))
    }

    /// A new world for one test.
    func makeWorld() async throws -> String {
        let name = "w\(UUID().uuidString.prefix(8).lowercased())"
        try await admin(.POST, "/admin/v1/worlds", ["id": name])
        return name
    }

    /// Waits until `count` update feeds are open on the store, so a change made next is live.
    /// No time limit of its own: the test's bounds it.
    func waitForFeeds(_ count: Int) async throws {
        while store.openUpdateFeeds < count { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// An admin or device API call that must succeed; its JSON answer.
    @discardableResult
    func admin(_ method: HTTPMethod, _ path: String, _ object: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        request.method = method
        if let object {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object)))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = Data(try await response.body.collect(upTo: 16 * 1024 * 1024).readableBytesView)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw SK1TestFailure("\(method) \(path) answered \(response.status.code): \(String(decoding: body, as: UTF8.self))")
        }
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// Approves the world's one pending Ask to Buy request.
    func approveAskToBuy(world: String) async throws {
        let pending = try await admin(.GET, "/admin/v1/worlds/\(world)/pending-purchases")
        guard let id = ((pending["pendingPurchases"] as? [[String: Any]])?.first)?["id"] as? String else {
            throw SK1TestFailure("no pending Ask to Buy request in \(world): \(pending)")
        }
        try await admin(.POST, "/admin/v1/worlds/\(world)/pending-purchases/\(id)/approve")
    }

    func simulate(_ api: String, _ error: String?, world: String) async throws {
        let path = "/admin/v1/worlds/\(world)/simulated-errors/\(api)"
        if let error { try await admin(.PUT, path, ["error": error]) } else { try await admin(.DELETE, path) }
    }

    func advanceTime(_ duration: String, world: String) async throws {
        try await admin(.POST, "/admin/v1/worlds/\(world)/time/advance", ["duration": duration])
    }
}

struct SK1TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension SK1TestStore {
    /// A promotional-offer signature (V1), made with an In-App Purchase key of the store as a
    /// developer's server makes it; the signature base64, as `SKPaymentDiscount` takes it.
    func promotionalOffer(product: String, offer: String, world: String) async throws -> (keyID: String, nonce: UUID, signature: String, timestamp: Int) {
        let key = try await store.world(world).createAPIKey(bundleId: Self.bundle)
        let nonce = UUID()
        let timestamp = Int(Date().timeIntervalSince1970 * 1000)
        let signature = try PromotionalOfferSignature.sign(
            privateKeyP8: key.privateKeyP8, bundleId: Self.bundle, keyId: key.key.keyId, productId: product, offerId: offer,
            appAccountToken: "", nonce: nonce, timestamp: Int64(timestamp))
        return (key.key.keyId, nonce, signature, timestamp)
    }
}

extension SK1TestStore {
    /// A store page as a browser gets it (redirects followed): status and HTML.
    func page(_ path: String, form: [String: String]? = nil) async throws -> (status: Int, html: String) {
        var request = HTTPClientRequest(url: url.absoluteString + path)
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            let body = form.map { key, value in
                "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
            }.joined(separator: "&")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return (Int(response.status.code), String(buffer: body))
    }
}
