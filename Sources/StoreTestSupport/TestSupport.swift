import Foundation
import StoreEngine

// What several test modules share. A library target because test targets can't depend on each
// other; no product exposes it.

/// A clock that stands still unless a test moves it.
public final class TestClock: StoreClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    /// A clock stopped at `date` (by default 2026-01-01 00:00 UTC).
    public init(_ date: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = date } // 2026-01-01
    /// The clock's current time; every world reads the same time.
    public func now() -> Date { lock.withLock { current } }
    /// Moves the clock forward by `seconds` (backward when negative), for every world at once.
    public func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A small catalog that exercises every product type and an intro offer.
public let testCatalogJSON = fixtureCatalog("test")

