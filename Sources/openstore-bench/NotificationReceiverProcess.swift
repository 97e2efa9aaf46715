import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The delivery benchmark's receiver, in a process of its own as an app's server would be: this
/// same executable started with `--receiver PORTFILE`. It answers `POST /notify` with 200 after
/// reading the whole body, counts what it received (`GET /count`), writes its port to PORTFILE
/// once it accepts connections, and exits on SIGTERM or when its parent goes (stdin closes).
enum NotificationReceiver {
    static func serve(portFile: String) async throws {
        let received = Atomic<Int>(0)
        let router = Router()
        router.post("notify") { request, _ in
            _ = try await request.body.collect(upTo: 1 << 20)
            received.add(1, ordering: .relaxed)
            return Response(status: .ok)
        }
        router.get("count") { _, _ in "\(received.load(ordering: .relaxed))" }
        // Orphaned (the benchmark crashed or was killed): stdin is the parent's pipe; EOF ends us.
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(0, &byte, 1) > 0 {}
            exit(0)
        }
        var logger = Logger(label: "openstore-bench.receiver")
        logger.logLevel = .warning
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                // Written then renamed, so the parent never reads half a number.
                let port = channel.localAddress?.port ?? 0
                try? Data("\(port)".utf8).write(to: URL(fileURLWithPath: portFile + ".tmp"))
                _ = rename(portFile + ".tmp", portFile)
            },
            logger: logger)
        try await app.runService(gracefulShutdownSignals: [.sigterm])
    }
}

/// The receiver process seen from the benchmark: its URL, its count, its CPU time.
/// `@unchecked`: `Process` and `Pipe` are touched only to start, read the pid and stop, from one task.
final class NotificationReceiverProcess: @unchecked Sendable {
    let port: Int
    let pid: Int32
    private let process: Process
    private let stdin: Pipe
    var url: String { "http://127.0.0.1:\(port)/notify" }

    private init(port: Int, process: Process, stdin: Pipe) {
        self.port = port
        self.process = process
        self.pid = process.processIdentifier
        self.stdin = stdin
    }

    /// Starts this executable as the receiver and waits (up to 20 s) until it listens.
    static func start() async throws -> NotificationReceiverProcess {
        let portFile = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-receiver-\(UUID().uuidString)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--receiver", portFile]
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let port = Int(text), port > 0 {
                try? FileManager.default.removeItem(atPath: portFile)
                return NotificationReceiverProcess(port: port, process: process, stdin: stdin)
            }
            guard process.isRunning else { throw BenchError("the receiver process exited with status \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw BenchError("the receiver process did not listen within 20 s")
    }

    /// POSTs it has answered so far.
    func count(client: HTTPClient) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/count"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1024)
        guard let count = Int(String(buffer: body)) else { throw BenchError("the receiver's count is not a number") }
        return count
    }

    /// Seconds of CPU the receiver has used (user + system, from /proc/PID/stat).
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After "pid (comm)": state is field 3, utime 14 and stime 15 (proc(5)).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() async {
        process.terminate()
        try? stdin.fileHandleForWriting.close()
        for _ in 0..<250 where process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }
}
