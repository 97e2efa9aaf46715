import Foundation
import StoreEngine
import Synchronization

// What several test modules share. A library target because test targets can't depend on each
// other; no product exposes it.

/// A wall clock that stands still unless a test moves it; each world's own clock is anchored
/// to it and runs at its world's rate.
public final class TestClock: StoreClock, Sendable {
    private let current: Mutex<Date>
    /// A clock stopped at `date` (by default 2026-01-01 00:00 UTC).
    public init(_ date: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = Mutex(date) } // 2026-01-01
    /// The time the test set.
    public func now() -> Date { current.withLock { $0 } }
    /// Moves the wall clock by `seconds` (backward when negative); a running world's time moves
    /// with it at the world's rate.
    public func advance(_ seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// A small catalog that exercises every product type and an intro offer.
public let testCatalogJSON = fixtureCatalog("test")

