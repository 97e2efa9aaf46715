import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import OpenStoreKit
import StoreEngine
import StoreModel
import StoreServer
import StoreSigning
import StoreStorage

/// The client library's figures (issue #10), each beside its limit measured in the same run:
/// - `VerificationResult` from a JWS (chain to the pinned root, ES256, bundle ID, environment,
///   decoding) next to raw P-256 verification of the same signing input: the physical limit;
/// - the same JWS verified by Apple's Python `SignedDataVerifier` (compat/.venv), if present;
/// - update latency: a purchase answered on one connection to its `Transaction.updates` event on
///   another (the library's SSE client, verified), next to a bare purchase round trip.
struct ClientBenchmark {
    var meter: RateMeter
    var purchases: Int
    var pythonSeconds: Double

    struct Figures {
        var rawVerify: Double
        var clientVerify: Double
        var python: Double?
        var pythonNote: String
        var latencies: [Double]
        var arrivedFirst: Int
        var purchaseRoundTrips: [Double]
        var apis: APIFigures
    }

    func run(log: (String) -> Void) async throws -> Figures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path)
        let bundle = DemoCatalogs.backyardBirdsBundleID
        let store = try await StoreEngine.AppStore.open(database: database, apps: [
            try StoreApp(bundleId: bundle, appAppleId: 1_640_000_001, environment: .sandbox, name: "Backyard Birds",
                         catalogJSON: DemoCatalogs.backyardBirds),
        ])
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let server = Task { try await StoreHTTPServer(store: store, port: 0).run { portContinuation.yield($0) } }
        defer { server.cancel() }
        var portIterator = ports.makeAsyncIterator()
        guard let port = await portIterator.next() else { throw BenchError("the store did not start") }
        let base = "http://127.0.0.1:\(port)"
        let product = "com.example.backyardbirds.sunflowerseeds"

        // One real signed transaction from the store, as the client receives it.
        let http = HTTPClient.shared
        let first = try await Self.purchase(http, base: base, bundle: bundle, product: product, customer: "bench-0")
        let root = store.authority.rootDER
        let verifier = try LocalVerifier(rootCertificateDER: root, bundleID: bundle, environment: .sandbox)
        let check = try verifier.transaction(first.jws)
        guard case .verified = check else { throw BenchError("the store's JWS does not verify on the client: \(check)") }

        // Raw P-256 over the same signing input (what any JWS verification must hash and check).
        let parts = first.jws.split(separator: ".")
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        let leafKey = store.authority.leafPrivateKey.publicKey
        guard let signatureBytes = Base64URL.decode(parts[2]),
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
              leafKey.isValidSignature(signature, for: signingInput)
        else { throw BenchError("cannot check the JWS signature with the store's leaf key") }
        let jws = first.jws
        let jwsVerifier = try JWSVerifier(rootCertificateDER: root)
        let payloadJSON = try jwsVerifier.verify(jws)
        let rates = meter.measure([
            .init(name: "raw verify") { leafKey.isValidSignature(signature, for: signingInput) ? 1 : 0 },
            .init(name: "client verify") {
                if case .verified(let transaction) = (try? verifier.transaction(jws)) { return transaction.purchasedQuantity }
                return 0
            },
            .init(name: "JWSVerifier alone") { (try? jwsVerifier.verify(jws))?.count ?? 0 },
            .init(name: "decoding alone") { (try? Transaction(payloadJSON: payloadJSON, jws: jws))?.purchasedQuantity ?? 0 },
            .init(name: "general wire decoder") { (try? TransactionPayload(json: payloadJSON))?.quantity ?? 0 },
        ])
        log(String(format: "verification: raw %.0f/s, VerificationResult %.0f/s (of which JWSVerifier alone %.0f/s, decoding into Transaction alone %.0f/s; StoreModel's general TransactionPayload(json:) %.0f/s)",
                   rates[0], rates[1], rates[2], rates[3], rates[4]))

        let (python, note) = Self.pythonVerify(jws: jws, root: root, bundle: bundle, seconds: pythonSeconds, folder: folder)
        log("Apple's SignedDataVerifier: " + (python.map { String(format: "%.0f/s", $0) } ?? "n/a") + " (\(note))")

        // Update latency: one listener (the library), purchases made on another connection.
        let connection = StoreConnection(.init(store: URL(string: base)!, bundleID: bundle, customer: "listener", createsCustomer: true))
        try await connection.connect()
        let arrivals = ArrivalBook()
        let listener = Task {
            await OpenStoreKit.withConnection(connection) {
                for await update in Transaction.updates {
                    arrivals.arrived(String(update.unsafePayloadValue.id), at: NIODeadline.now().uptimeNanoseconds)
                }
            }
        }
        defer { listener.cancel() }
        while store.openUpdateFeeds < 1 { try await Task.sleep(for: .milliseconds(10)) }
        var latencies: [Double] = []
        var roundTrips: [Double] = []
        var arrivedFirst = 0
        for index in 0..<purchases {
            let sent = NIODeadline.now().uptimeNanoseconds
            let answer = try await Self.purchase(http, base: base, bundle: bundle, product: product, customer: "listener")
            let answered = NIODeadline.now().uptimeNanoseconds
            roundTrips.append(Double(answered - sent) / 1e6)
            let arrived = await arrivals.wait(for: answer.id)
            if arrived < answered { arrivedFirst += 1 }
            latencies.append(arrived > answered ? Double(arrived - answered) / 1e6 : 0)
            if index == 0 { log("first update arrived \(String(format: "%.3f", latencies[0])) ms after its purchase was answered") }
        }
        let apis = try await Self.storeKitAPIs(store: store, base: base, bundle: bundle, rounds: max(10, purchases / 10),
                                               renewals: max(5, purchases / 100), log: log)
        await store.shutdown()
        return Figures(rawVerify: rates[0], clientVerify: rates[1], python: python, pythonNote: note,
                       latencies: latencies, arrivedFirst: arrivedFirst, purchaseRoundTrips: roundTrips, apis: apis)
    }

    static func purchase(_ http: HTTPClient, base: String, bundle: String, product: String, customer: String) async throws -> (id: String, jws: String) {
        var request = HTTPClientRequest(url: base + "/storekit/v1/apps/\(bundle)/purchases")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: "{\"productId\":\"\(product)\",\"customer\":\"\(customer)\"}"))
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        struct Answer: Decodable { var signedTransaction: String?; var transaction: TransactionPayload? }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(body.readableBytesView))
        guard let jws = answer.signedTransaction, let id = answer.transaction?.transactionId else {
            throw BenchError("purchase failed: HTTP \(response.status.code)")
        }
        return (id, jws)
    }

    /// Apple's `SignedDataVerifier` (app-store-server-library) on the same JWS, in the compat venv.
    static func pythonVerify(jws: String, root: [UInt8], bundle: String, seconds: Double, folder: URL) -> (Double?, String) {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let python = ProcessInfo.processInfo.environment["OPENSTORE_COMPAT_PYTHON"] ?? repository.appendingPathComponent("compat/.venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { return (nil, "no compat venv at \(python)") }
        let rootFile = folder.appendingPathComponent("root.der")
        let jwsFile = folder.appendingPathComponent("transaction.jws")
        do {
            try Data(root).write(to: rootFile)
            try Data(jws.utf8).write(to: jwsFile)
        } catch {
            return (nil, "cannot write inputs: \(error)")
        }
        let script = """
            import sys, time
            from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
            from appstoreserverlibrary.models.Environment import Environment
            root = open(sys.argv[1], "rb").read(); jws = open(sys.argv[2]).read().strip()
            verifier = SignedDataVerifier([root], False, Environment.SANDBOX, sys.argv[3])
            verifier.verify_and_decode_signed_transaction(jws)
            best = 0.0
            for _ in range(3):
                n = 0; start = time.perf_counter(); end = start + float(sys.argv[4]) / 3
                while time.perf_counter() < end:
                    verifier.verify_and_decode_signed_transaction(jws); n += 1
                best = max(best, n / (time.perf_counter() - start))
            print(best)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, rootFile.path, jwsFile.path, bundle, String(seconds)]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            return (nil, "cannot run \(python): \(error)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let rate = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return (nil, "Python verifier failed: \(String(decoding: errors, as: UTF8.self).suffix(300))")
        }
        return (rate, "one thread, chain verified once then cached, as the library does")
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// When each update arrived, and who is waiting for which. A lock, not an actor: the listener
/// records an arrival without a task hop that would add to the latency measured.
final class ArrivalBook: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: UInt64] = [:]
    private var waiting: [String: CheckedContinuation<UInt64, Never>] = [:]

    func arrived(_ id: String, at time: UInt64) {
        lock.lock()
        let waiter = waiting.removeValue(forKey: id)
        if waiter == nil { times[id] = time }
        lock.unlock()
        waiter?.resume(returning: time)
    }

    func wait(for id: String) async -> UInt64 {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let time = times.removeValue(forKey: id) {
                lock.unlock()
                continuation.resume(returning: time)
            } else {
                waiting[id] = continuation
                lock.unlock()
            }
        }
    }
}
