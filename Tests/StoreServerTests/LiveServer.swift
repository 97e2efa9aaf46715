import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import StoreEngine
import StoreModel
@testable import StoreServer
import StoreStorage
import StoreTestSupport
import StoreViews

/// A real store on a loopback port, for tests that speak HTTP to it.
final class LiveServer: Sendable {
    let base: String
    let store: AppStore
    let task: Task<Void, any Error>
    let client = HTTPClient(eventLoopGroupProvider: .singleton)

    private init(base: String, store: AppStore, task: Task<Void, any Error>) {
        self.base = base
        self.store = store
        self.task = task
    }

    /// - Parameter peer: when given, every request is served as if it came from this address
    ///   (the connection itself is on loopback), to test what outside peers get.
    static func start(apps: [StoreApp], host: String = "127.0.0.1", adminToken: String? = nil,
                      storePages: [StorePage] = DemoStorePages.all, peer: SocketAddress? = nil) async throws -> LiveServer {
        let path = TemporaryFolder.make("http").appendingPathComponent("store.sqlite").path
        let database = try await StoreDatabase.open(path: path)
        let store = try await AppStore.open(database: database, apps: apps)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let server = StoreHTTPServer(store: store, host: host, port: 0, adminToken: adminToken, storePages: storePages)
        let task: Task<Void, any Error>
        if let peer {
            let app = Application(
                router: PeerRecordingRouter(server.makeRouter(), peer: { _ in peer }),
                configuration: .init(address: .hostname(host, port: 0), serverName: "OpenStoreKit"),
                onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
            task = Task { try await app.runService() }
        } else {
            task = Task { try await server.run { port in continuation.yield(port) } }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return LiveServer(base: "http://127.0.0.1:\(port)", store: store, task: task)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
        try? await client.shutdown()
        await store.close()
    }

    struct Answer {
        var status: Int
        var contentType: String?
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    func request(_ method: HTTPMethod, _ path: String, body: Data? = nil, contentType: String = "application/json") async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 32 * 1024 * 1024)
        return Answer(status: Int(response.status.code), contentType: response.headers.first(name: "Content-Type"), body: Data(bytes.readableBytesView))
    }

    func json(_ method: HTTPMethod, _ path: String, _ object: [String: Any]) async throws -> Answer {
        try await request(method, path, body: try JSONSerialization.data(withJSONObject: object))
    }
}
