import Foundation

/// Start-up time of `openstore serve`: from spawning the process to its `listening on` line, on a
/// fresh data folder (which creates the database and the certificate authority) and on a restart
/// of the same data. Its limit, measured alongside: the same binary started to print its help and
/// exit, which is what any start-up costs before the store does anything (exec, dynamic linking,
/// the Swift runtime). This figure used to be a 1-second assertion in the compat suite, which a
/// shared machine running a debug build made flaky.
struct StartupBenchmark {
    struct Figures {
        var fresh: [Double]
        var restart: [Double]
        var bare: [Double]
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let binary: URL
    let rounds: Int

    /// `openstore` next to this executable, unless `OPENSTORE_BIN` says otherwise.
    static func defaultBinary() -> URL {
        if let path = ProcessInfo.processInfo.environment["OPENSTORE_BIN"] { return URL(fileURLWithPath: path) }
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("openstore")
    }

    func run(log: (String) -> Void) throws -> Figures {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "no openstore binary at \(binary.path) (build it, or set OPENSTORE_BIN)")
        }
        var figures = Figures(fresh: [], restart: [], bare: [])
        for round in 1...rounds {
            figures.bare.append(try timeToExit(["--help"]))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-bench-startup-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            figures.fresh.append(try timeToListen(data: folder))
            figures.restart.append(try timeToListen(data: folder))
            log(String(format: "round %d: fresh %.3f s, restart %.3f s, --help %.3f s",
                       round, figures.fresh.last!, figures.restart.last!, figures.bare.last!))
        }
        return figures
    }

    /// Seconds until the process has exited.
    func timeToExit(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        return seconds(ContinuousClock.now - start)
    }

    /// Seconds until `openstore serve` prints `listening on`; then it is stopped with SIGTERM.
    func timeToListen(data: URL) throws -> Double {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--data", data.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let start = ContinuousClock.now
        try process.run()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        var seen = Data()
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty {
                throw Failure(description: "openstore serve exited before listening: \(String(decoding: seen, as: UTF8.self))")
            }
            seen += chunk
            if String(decoding: seen, as: UTF8.self).contains("listening on") { return seconds(ContinuousClock.now - start) }
        }
    }

    func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
}
