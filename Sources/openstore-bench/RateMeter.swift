import NIOCore

/// Measures operations per second of single-threaded work.
///
/// Contenders that are compared with each other run in alternating rounds (a, b, a, b, …) and each
/// keeps its best round, so a burst of load from elsewhere on the machine hurts neither more than
/// the other and the ratio stays meaningful.
struct RateMeter {
    var rounds: Int
    var roundSeconds: Double

    struct Contender {
        var name: String
        /// Does one operation; returns something derived from its result so it can't be optimised away.
        var operation: () -> Int
    }

    /// Best operations per second of each contender, in the order given.
    func measure(_ contenders: [Contender]) -> [Double] {
        var best = Array(repeating: 0.0, count: contenders.count)
        var sink = 0
        for contender in contenders {  // warm caches and lazy initialisation
            for _ in 0..<16 { sink &+= contender.operation() }
        }
        for _ in 0..<rounds {
            for (index, contender) in contenders.enumerated() {
                let (count, seconds) = timed(contender.operation, sink: &sink)
                best[index] = max(best[index], Double(count) / seconds)
            }
        }
        if sink == 42 { print("") }  // keeps `sink` alive
        return best
    }

    private func timed(_ operation: () -> Int, sink: inout Int) -> (Int, Double) {
        let start = NIODeadline.now().uptimeNanoseconds
        let end = start + UInt64(roundSeconds * 1e9)
        var count = 0
        var now = start
        repeat {
            for _ in 0..<8 { sink &+= operation() }
            count += 8
            now = NIODeadline.now().uptimeNanoseconds
        } while now < end
        return (count, Double(now - start) / 1e9)
    }
}
