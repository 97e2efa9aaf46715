import Foundation
import Hummingbird
import NIOCore
import StoreEngine
import StoreModel
import StoreSigning
import StoreStorage
import StoreTestSupport
import Synchronization

let hourMs: Int64 = 3_600_000
let dayMs: Int64 = 86_400_000
let notificationBundle = "com.example.notify"

func makeNotificationStore(environment: StoreEnvironment, path: String? = nil) async throws -> AppStore {
    let app = try StoreApp(bundleId: notificationBundle, appAppleId: 1_234_567_890, environment: environment, name: "Notify",
                           catalogJSON: testCatalogJSON)
    let file = path ?? TemporaryFolder.make("notify").appendingPathComponent("store.sqlite").path
    let database = try await StoreDatabase.open(path: file)
    return try await AppStore.open(database: database, apps: [app], clock: TestClock(), runScheduler: false)
}

/// A real HTTP receiver on a loopback port, started by the test: it records every POST body and
/// answers with `status`. Stopping it closes the port (connection refused); it can start again
/// on the same port.
final class TestReceiver: Sendable {
    private let boundPort = Mutex(0)
    let received = Mutex<[String]>([])
    let status = Mutex<Int>(200)
    private let server = Mutex<LoopbackServer?>(nil)

    var port: Int { boundPort.withLock { $0 } }
    var url: String { "http://127.0.0.1:\(port)/notify" }

    static func start() async throws -> TestReceiver {
        let receiver = TestReceiver()
        try await receiver.listen(on: 0)
        return receiver
    }

    private func listen(on port: Int) async throws {
        let router = Router()
        router.post("notify") { [self] request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0.append(String(buffer: body)) }
            return Response(status: HTTPResponse.Status(code: status.withLock { $0 }))
        }
        let running = try await LoopbackServer.start { listening in
            let app = Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { channel in listening(channel.localAddress?.port ?? 0) })
            return { try await app.runService(gracefulShutdownSignals: []) }
        }
        boundPort.withLock { $0 = running.port }
        server.withLock { $0 = running }
    }

    /// Closes the port: attempts now meet a refused connection.
    func stop() async {
        let running = server.withLock { value -> LoopbackServer? in defer { value = nil }; return value }
        await running?.stop()
    }

    /// Listens again on the same port, keeping what was received.
    func restart() async throws { try await listen(on: port) }

    /// The decoded notification payloads received so far, each verified with the store's root.
    func notifications(verifier: JWSVerifier) throws -> [[String: Any]] {
        try received.withLock { $0 }.map { body in
            let outer = try JSONSerialization.jsonObject(with: Data(body.utf8)) as! [String: Any]
            return try decodeNotification(outer["signedPayload"] as! String, verifier: verifier)
        }
    }
}

/// Verifies a signedPayload and its nested JWS; returns the payload with the nested ones decoded
/// under `transactionInfo` / `renewalInfo`.
func decodeNotification(_ jws: String, verifier: JWSVerifier) throws -> [String: Any] {
    var payload = try JSONSerialization.jsonObject(with: Data(try verifier.verify(jws))) as! [String: Any]
    if var data = payload["data"] as? [String: Any] {
        if let signed = data["signedTransactionInfo"] as? String {
            data["transactionInfo"] = try JSONSerialization.jsonObject(with: Data(try verifier.verify(signed)))
        }
        if let signed = data["signedRenewalInfo"] as? String {
            data["renewalInfo"] = try JSONSerialization.jsonObject(with: Data(try verifier.verify(signed)))
        }
        payload["data"] = data
    }
    return payload
}

func name(_ payload: [String: Any]) -> String {
    let type = payload["notificationType"] as? String ?? "?"
    return (payload["subtype"] as? String).map { "\(type)/\($0)" } ?? type
}
