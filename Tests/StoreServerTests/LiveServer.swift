import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import StoreEngine
import StoreModel
@testable import StoreServer
import StoreStorage
import StoreTestSupport
import StoreViews

/// A real store for tests that speak HTTP to it: on a loopback port (`.socket`, the wire), or
/// driven in process by Hummingbird's testing framework (`.router`: no socket, no port; only
/// `request` and `json` work, and nothing follows redirects).
final class LiveServer: Sendable {
    /// How requests reach the store.
    enum Transport { case socket, router }

    let base: String
    let store: AppStore
    let server: LoopbackServer?
    let router: (any TestClientProtocol)?
    let client = HTTPClient(eventLoopGroupProvider: .singleton)

    private init(base: String, store: AppStore, server: LoopbackServer?, router: (any TestClientProtocol)? = nil) {
        self.base = base
        self.store = store
        self.server = server
        self.router = router
    }

    /// - Parameter peer: when given, every request is served as if it came from this address
    ///   (the connection itself is on loopback), to test what outside peers get.
    static func start(apps: [StoreApp], host: String = "127.0.0.1", adminToken: String? = nil,
                      storePages: [StorePage] = DemoStorePages.all, peer: SocketAddress? = nil,
                      serverAPIRateLimit: Int? = nil, offerings: OfferingSource? = nil) async throws -> LiveServer {
        let path = TemporaryFolder.make("http").appendingPathComponent("store.sqlite").path
        let database = try await StoreDatabase.open(path: path)
        let store = try await AppStore.open(database: database, apps: apps)
        var configured = StoreHTTPServer(store: store, host: host, port: 0, adminToken: adminToken, storePages: storePages)
        configured.serverAPIRateLimit = serverAPIRateLimit
        configured.peerOverride = peer
        configured.offerings = offerings
        let server = configured
        let running = try await LoopbackServer.start { listening in
            { try await server.run { port in listening(port) } }
        }
        return LiveServer(base: "http://127.0.0.1:\(running.port)", store: store, server: running)
    }

    /// Runs `body` against a fresh server (see `start`) and always stops it afterwards.
    static func with<Value>(apps: [StoreApp], host: String = "127.0.0.1", adminToken: String? = nil,
                            storePages: [StorePage] = DemoStorePages.all, peer: SocketAddress? = nil, serverAPIRateLimit: Int? = nil,
                            transport: Transport = .socket, offerings: OfferingSource? = nil,
                            _ body: (LiveServer) async throws -> Value) async throws -> Value {
        if transport == .router {
            return try await inProcess(apps: apps, adminToken: adminToken, storePages: storePages, peer: peer,
                                       serverAPIRateLimit: serverAPIRateLimit, body)
        }
        return try await withStarted({ try await start(apps: apps, host: host, adminToken: adminToken, storePages: storePages, peer: peer,
                                                       serverAPIRateLimit: serverAPIRateLimit, offerings: offerings) },
                                     stop: { await $0.stop() }, body)
    }

    /// The same store and router, driven by `Application.test(.router)`. The peer is loopback
    /// unless `peer` says otherwise, as it is for a test on a loopback socket.
    private static func inProcess<Value>(apps: [StoreApp], adminToken: String?, storePages: [StorePage], peer: SocketAddress?,
                                         serverAPIRateLimit: Int?, _ body: (LiveServer) async throws -> Value) async throws -> Value {
        let path = TemporaryFolder.make("router").appendingPathComponent("store.sqlite").path
        let store = try await AppStore.open(database: try await StoreDatabase.open(path: path), apps: apps)
        var configured = StoreHTTPServer(store: store, port: 0, adminToken: adminToken, storePages: storePages)
        configured.serverAPIRateLimit = serverAPIRateLimit
        configured.peerOverride = try peer ?? SocketAddress(ipAddress: "127.0.0.1", port: 0)
        let app = Application(router: configured.makeRouter())
        // The test body is not Sendable; it runs once, inside this call, before `test` returns.
        nonisolated(unsafe) let body = body
        do {
            let value = try await app.test(.router) { client in
                let live = LiveServer(base: "", store: store, server: nil, router: client)
                do {
                    let value = try await body(live)
                    try? await live.client.shutdown()
                    return UncheckedBox(value)
                } catch {
                    try? await live.client.shutdown()
                    throw error
                }
            }
            await store.close()
            return value.value
        } catch {
            await store.close()
            throw error
        }
    }

    func stop() async {
        await server?.stop()
        try? await client.shutdown()
        await store.close()
    }

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var contentType: String? { headers.first(name: "Content-Type") }
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    /// One request. `client` replaces the server's own (which follows redirects), e.g. with one
    /// that does not, so a page's `303` is seen.
    func request(_ method: HTTPMethod, _ path: String, body: Data? = nil, contentType: String = "application/json",
                 headers: [(String, String)] = [], client: HTTPClient? = nil, timeout: TimeAmount = .seconds(30)) async throws -> Answer {
        if let router {
            var fields = HTTPFields()
            for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
            if body != nil { fields[.contentType] = contentType }
            let response = try await router.executeRequest(
                uri: path, method: HTTPRequest.Method(method.rawValue)!, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
            var answerHeaders = HTTPHeaders()
            for field in response.headers { answerHeaders.add(name: field.name.rawName, value: field.value) }
            return Answer(status: Int(response.status.code), headers: answerHeaders, body: Data(buffer: response.body))
        }
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await (client ?? self.client).execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 32 * 1024 * 1024)
        return Answer(status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
    }

    func json(_ method: HTTPMethod, _ path: String, _ object: [String: Any]) async throws -> Answer {
        try await request(method, path, body: try JSONSerialization.data(withJSONObject: object))
    }
}

/// Carries the test body's value out of `Application.test`, whose closure is `@Sendable`.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
