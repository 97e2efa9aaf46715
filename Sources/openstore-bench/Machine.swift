import Foundation
import NIOCore

/// What the figures were measured on. Absolute numbers only mean something next to this.
struct Machine {
    var cores: Int
    var cpuModel: String
    var loadAverage: String
    var kernel: String
    var build: String
    var isDebug: Bool
    var compiler: String

    static func current() -> Machine {
        #if DEBUG
        let isDebug = true
        #else
        let isDebug = false
        #endif
        #if compiler(>=6.3)
        let compiler = "Swift 6.3+"
        #elseif compiler(>=6.2)
        let compiler = "Swift 6.2"
        #elseif compiler(>=6.1)
        let compiler = "Swift 6.1"
        #else
        let compiler = "Swift 6.0"
        #endif
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n")
            .first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(
            cores: System.coreCount, cpuModel: model, loadAverage: load.isEmpty ? "?" : load,
            kernel: "Linux \(release)", build: isDebug ? "DEBUG (-Onone): figures are meaningless" : "release (-O)",
            isDebug: isDebug, compiler: compiler)
    }

    /// The 1-minute load average when the run started; above ~0.5 something else is using the cores.
    var oneMinuteLoad: Double { Double(loadAverage.split(separator: " ").first ?? "") ?? 0 }
}
