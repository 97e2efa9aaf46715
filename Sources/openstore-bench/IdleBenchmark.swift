import AsyncHTTPClient
import Foundation
import NIOCore

/// The CPU a server uses while nobody calls it (issue #27: `openstore serve` once burned a whole
/// core idling). Its limit, measured in the same run: a bare Hummingbird server in this process,
/// idle for the same time, which is what the framework, its event loops and the Swift runtime cost
/// while waiting. Each is measured once its start-up (or backlog) is done. Measured: the store alone (`serve --no-backend`), the store with its backend
/// (`serve`, as the README starts it), and the same process again after `events` purchases, each
/// an App Store event with its notification delivered to and ingested by the backend.
struct IdleBenchmark {
    struct Figures {
        /// Share of one core, over `seconds`.
        var bare: Double
        var store: Double
        var serve: Double
        var afterEvents: Double
        var events: Int
        var eventSeconds: Double
    }

    let binary: URL
    let seconds: Double
    let events: Int

    func run(log: (String) -> Void) async throws -> Figures {
        let bareServer = try await BenchServers.bare()
        let start = CPUSample.now()
        try await Task.sleep(for: .seconds(seconds))
        let bare = (CPUSample.now().process - start.process) / seconds
        await bareServer.stop()
        log(String(format: "bare Hummingbird (in this process), idle: %.3f %% of a core", bare * 100))

        let store = try SpawnedServe(binary: binary, arguments: ["--no-backend"])
        defer { store.stop() }
        try await store.settle()
        let storeShare = try await store.idleShare(seconds: seconds)
        store.stop()
        log(String(format: "openstore serve --no-backend, idle: %.3f %% of a core", storeShare * 100))

        let serve = try SpawnedServe(binary: binary, arguments: [])
        defer { serve.stop() }
        try await serve.waitForBackend()
        try await serve.settle()
        let serveShare = try await serve.idleShare(seconds: seconds)
        log(String(format: "openstore serve (store + backend), idle: %.3f %% of a core", serveShare * 100))

        let began = ContinuousClock.now
        try await purchases(port: serve.port, count: events)
        let eventSeconds = Double((ContinuousClock.now - began).components.seconds)
        try await serve.settle(maxSeconds: 180)  // the notifications drain to the backend
        let after = try await serve.idleShare(seconds: seconds)
        log(String(format: "openstore serve after %d purchases (%.0f s): %.3f %% of a core", events, eventSeconds, after * 100))
        return Figures(bare: bare, store: storeShare, serve: serveShare, afterEvents: after, events: events, eventSeconds: eventSeconds)
    }

    /// `count` consumable purchases through the device API, 8 at a time, over 100 customers.
    private func purchases(port: Int, count: Int) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let url = "http://127.0.0.1:\(port)/storekit/v1/apps/com.example.backyardbirds/purchases"
        do {
            try await send(count: count, url: url, client: client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    private func send(count: Int, url: String, client: HTTPClient) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    for i in stride(from: lane, to: count, by: 8) {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string:
                            #"{"productId":"com.example.backyardbirds.sunflowerseeds","customer":"idle-\#(i % 100)"}"#))
                        let response = try await client.execute(request, timeout: .seconds(60))
                        _ = try await response.body.collect(upTo: 1 << 20)
                        guard response.status == .ok || response.status == .created else {
                            throw BenchError("purchase answered \(response.status.code)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// `openstore serve` in a temporary folder, on a free port, stopped with SIGTERM.
final class SpawnedServe: @unchecked Sendable {
    let process = Process()
    let folder: URL
    private let log: URL
    private(set) var port = 0

    init(binary: URL, arguments: [String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-idle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--backend-port", "0", "--data", folder.path] + arguments
        process.currentDirectoryURL = folder
        // Its output goes to a file, not a pipe: a pipe nobody reads would stall the server's logging.
        log = folder.appendingPathComponent("serve.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let file = try FileHandle(forWritingTo: log)
        process.standardOutput = file
        process.standardError = file
        try process.run()
        try file.close()
        let listening = try read(until: "OpenStoreKit listening on http://127.0.0.1:")
        let parts = listening.components(separatedBy: "OpenStoreKit listening on http://127.0.0.1:")
        let tail = parts.count > 1 ? parts[1] : ""
        port = Int(tail.prefix(while: \.isNumber)) ?? 0
        guard port > 0 else { throw BenchError("openstore serve printed no port: \(listening)") }
    }

    /// Waits for the backend's start line.
    func waitForBackend() async throws {
        _ = try read(until: "Subscription backend listening")
    }

    private func read(until marker: String) throws -> String {
        for _ in 0..<1200 {
            let seen = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if seen.contains(marker) { return seen }
            if !process.isRunning { throw BenchError("openstore serve ended before '\(marker)': \(seen)") }
            usleep(50_000)
        }
        throw BenchError("openstore serve printed no '\(marker)' within a minute")
    }

    /// Waits until start-up or a backlog (the backend ingesting the purchases' notifications) is
    /// done: three seconds in a row under 2 % of a core.
    func settle(maxSeconds: Int = 30) async throws {
        var quiet = 0
        for _ in 0..<maxSeconds where quiet < 3 {
            quiet = try await idleShare(seconds: 1) < 0.02 ? quiet + 1 : 0
        }
    }

    /// The share of one core the process used over `seconds`, from /proc/PID/stat.
    func idleShare(seconds: Double) async throws -> Double {
        let before = try cpuSeconds()
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(seconds))
        let elapsed = ContinuousClock.now - start
        return (try cpuSeconds() - before) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchError("cannot read /proc/\(process.processIdentifier)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
