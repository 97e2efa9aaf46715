import AsyncHTTPClient
import Hummingbird
import Logging
import StoreTestSupport
import Synchronization
import Testing
@testable import StoreServer

/// A request whose task is cancelled (its client closed a `Transaction.updates` stream, or the
/// server is stopping) is no fault of the store: it is answered 499 and logged at `info`, never as
/// a 500 "request failed" that would page someone. A real fault is still a 500 logged at `error`.
@Suite struct CancelledRequestTests {
    /// Every line logged, as (level, message, status).
    final class Lines: Sendable {
        let all = Mutex<[(Logger.Level, String, String?)]>([])
    }

    struct Capturing: LogHandler {
        let lines: Lines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let status = event.metadata?["status"].map { "\($0)" }
            lines.all.withLock { $0.append((event.level, "\(event.message)", status)) }
        }
    }

    @Test func aCancelledRequestIs499AtInfoAndAFaultIsStill500AtError() async throws {
        let lines = Lines()
        let router = Router(context: StoreRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.get("cancelled") { _, _ -> Response in throw CancellationError() }
        router.get("broken") { _, _ -> Response in throw Broken() }
        let logger = Logger(label: "test") { _ in Capturing(lines: lines) }
        let server = try await LoopbackServer.start { listening in
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                  onServerRunning: { listening($0.localAddress?.port ?? 0) }, logger: logger)
            return { try await app.runService() }
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        for (path, status) in [("cancelled", 499), ("broken", 500)] {
            let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/\(path)"), timeout: .seconds(30))
            #expect(Int(response.status.code) == status, "\(path)")
        }
        try await client.shutdown()
        await server.stop()

        let logged = lines.all.withLock { $0 }.filter { $0.1 == "request" || $0.1 == "request failed" }
        #expect(logged.contains { $0.0 == .info && $0.1 == "request" && $0.2 == "499" })
        #expect(logged.filter { $0.1 == "request failed" }.map(\.2) == ["500"], "only the fault is a failure: \(logged)")
    }

    struct Broken: Error {}
}
