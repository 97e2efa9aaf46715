import Foundation

/// A sample app of this repository (`storekit-example`, `apphud-paywall-example`) run as a process
/// to its end, as a person runs it: what it printed and how it exited.
public enum ExampleProcess {
    /// The built executable `name` (`swift build --build-tests` builds it beside the tests).
    public static func executable(_ name: String, filePath: String = #filePath) -> URL {
        var root = URL(fileURLWithPath: filePath)
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path), root.path != "/" {
            root.deleteLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/\(name)")
    }

    /// Thrown by `run` when the executable has not been built, telling the reader how to build it.
    public struct Missing: Error, CustomStringConvertible {
        /// The missing path and the command that builds it.
        public var description: String
    }

    /// Runs `executable` with `arguments` to its end; `whileRunning` runs meanwhile (the process is
    /// ended if it throws). Returns its standard output, standard error and exit status.
    public static func run(_ executable: URL, _ arguments: [String], whileRunning: (@Sendable () async throws -> Void)? = nil)
        async throws -> (stdout: String, stderr: String, status: Int32) {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw Missing(description: "\(executable.path) is missing: run `swift build --build-tests` first")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { ended.continuation.yield($0.terminationStatus); ended.continuation.finish() }
        // One launch at a time: Foundation's `Process.run()` on Linux is not safe to call from two
        // threads at once (seen: a crash in its memmove while two suites started their sample apps).
        try launching.withLock { try process.run() }
        // Read on threads of their own: a blocking read must not hold one of the few threads the
        // store under test runs on.
        let output = Task { await readToEnd(out.fileHandleForReading) }
        let errors = Task { await readToEnd(err.fileHandleForReading) }
        do {
            try await whileRunning?()
        } catch {
            process.terminate()
            throw error
        }
        var statuses = ended.stream.makeAsyncIterator()
        let status = await statuses.next() ?? -1
        return (String(decoding: await output.value, as: UTF8.self), String(decoding: await errors.value, as: UTF8.self), status)
    }

    private static let launching = NSLock()

    static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }
}
