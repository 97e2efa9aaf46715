import Foundation

/// Where the store reads the time. Every rule takes time from here, never from `Date()`, so that
/// tests and worlds can control it.
public protocol StoreClock: Sendable {
    func now(world: String) -> Date
}

/// Real time, for a store without time travel.
public struct SystemClock: StoreClock {
    public init() {}
    public func now(world: String) -> Date { Date() }
}

extension Date {
    /// Milliseconds since 1970, the unit of every date on Apple's wire.
    public var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
