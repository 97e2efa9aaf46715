import Foundation

/// The store's wall clock: where it reads real time. Every rule takes time from here, never from
/// `Date()`, so that tests control it. A world's own time (which runs at a test rate, pauses and
/// jumps) is a separate type, `WorldClock`, anchored to readings of this clock.
public protocol StoreClock: Sendable {
    /// Real time now (a test clock: the time the test set).
    func now() -> Date
}

/// Real time, as the system tells it.
public struct SystemClock: StoreClock {
    /// The system's clock; the default of `AppStore.open`.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}

extension Date {
    /// Milliseconds since 1970, the unit of every date on Apple's wire.
    public var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    /// The date `milliseconds` after 1970, as Apple's wire dates give it.
    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
