import Foundation

/// CPU time used by this process and by the whole machine, so a throughput figure can be turned
/// into CPU per request (which holds even when other work shares the cores) and so the report can
/// say how much of the machine other processes took during a measurement.
struct CPUSample {
    /// Seconds of CPU this process has used (all threads, user + system).
    var process: Double
    /// Seconds of CPU the whole machine has spent not idle (from /proc/stat).
    var machineBusy: Double

    static func now() -> CPUSample {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        let process = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
        var busy = 0.0
        if let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
           let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ") {
            // user nice system idle iowait irq softirq steal …, in clock ticks
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            if fields.count >= 8 {
                let idle = fields[3] + fields[4]
                busy = (fields.prefix(8).reduce(0, +) - idle) / Double(sysconf(Int32(_SC_CLK_TCK)))
            }
        }
        return CPUSample(process: process, machineBusy: busy)
    }
}

/// CPU used during an interval.
struct CPUUsage: Sendable {
    /// Seconds of CPU this process used.
    var process: Double
    /// Seconds of CPU other processes used (machine busy minus ours; /proc/stat has 10 ms resolution).
    var others: Double

    init(from start: CPUSample, to end: CPUSample) {
        process = end.process - start.process
        others = max(0, (end.machineBusy - start.machineBusy) - process)
    }

    init() {
        process = 0
        others = 0
    }
}
