import Foundation

/// A world's clock: world time = anchor + speed × real time elapsed since the anchor + manual
/// advances. It never runs backwards: changing the rate re-anchors at the current world time, and
/// advances only add.
public struct WorldClock: Sendable, Equatable, Codable {
    /// Real time (ms) at the anchor.
    public var anchorRealMs: Int64
    /// World time (ms) at the anchor.
    public var anchorWorldMs: Int64
    /// How fast world time runs from the anchor on.
    public var rate: TimeRate

    /// A clock that reads `anchorWorldMs` at real time `anchorRealMs` and runs at `rate` from there.
    public init(anchorRealMs: Int64, anchorWorldMs: Int64, rate: TimeRate) {
        self.anchorRealMs = anchorRealMs
        self.anchorWorldMs = anchorWorldMs
        self.rate = rate
    }

    /// A clock that reads real time and runs at `rate`.
    public static func starting(at realMs: Int64, rate: TimeRate) -> WorldClock {
        WorldClock(anchorRealMs: realMs, anchorWorldMs: realMs, rate: rate)
    }

    /// The world's time at real time `realMs`; a real time before the anchor reads as the anchor.
    public func worldMs(atReal realMs: Int64) -> Int64 {
        let elapsed = max(0, realMs - anchorRealMs)
        return anchorWorldMs + Int64((Double(elapsed) * rate.clockSpeed).rounded(.down))
    }

    /// Real time (ms) at which the world reaches `worldMs`; used to sleep until the next event.
    public func realMs(atWorld worldMs: Int64) -> Int64 {
        let ahead = max(0, worldMs - anchorWorldMs)
        // A paused clock (speed 0) or a very slow one never gets there: "far in the future",
        // without overflowing Int64.
        let real = (Double(ahead) / max(rate.clockSpeed, 1e-9)).rounded(.up)
        return real < Double(Int64.max / 4) ? anchorRealMs + Int64(real) : Int64.max / 4
    }

    /// Jumps ahead by `ms` world milliseconds (negative values are ignored).
    public mutating func advance(by ms: Int64, atReal realMs: Int64) {
        reanchor(atReal: realMs)
        anchorWorldMs += max(0, ms)
    }

    /// Runs at `newRate` from real time `realMs` on, keeping the world time reached so far.
    public mutating func setRate(_ newRate: TimeRate, atReal realMs: Int64) {
        reanchor(atReal: realMs)
        rate = newRate
    }

    private mutating func reanchor(atReal realMs: Int64) {
        let now = worldMs(atReal: realMs)
        anchorRealMs = max(realMs, anchorRealMs)
        anchorWorldMs = now
    }
}
