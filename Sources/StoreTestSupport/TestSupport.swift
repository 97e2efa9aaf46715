import Foundation
import StoreEngine

// What several test modules share. A library target because test targets can't depend on each
// other; no product exposes it.

/// A clock that stands still unless a test moves it.
public final class TestClock: StoreClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    public init(_ date: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = date } // 2026-01-01
    public func now(world: String) -> Date { lock.withLock { current } }
    public func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// A small catalog that exercises every product type and an intro offer.
public let testCatalogJSON = fixtureCatalog("test")

