import Foundation
import Synchronization

/// Real time, as the developer's side of the system reads it: milliseconds since 1970. Separate
/// from the store's per-world clocks (`WorldClock` in the engine), which run at test rates and jump; the
/// backend's webhooks, retries and customer-info `requestDate` follow this one. Injected, so a
/// test sets the time instead of sleeping.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that calls `read` on every `nowMs()`, so a test can supply any time it likes.
    public init(_ read: @escaping @Sendable () -> Int64) {
        self.read = read
    }

    /// The system's time.
    public static let system = WallClock { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// A clock that stands still until moved (`ManualWallClock.advance`).
    public static func manual(_ clock: ManualWallClock) -> WallClock {
        WallClock { clock.nowMs }
    }

    /// Milliseconds since 1970, read afresh on every call, so a manual clock's `advance` shows at once.
    public func nowMs() -> Int64 { read() }
}

/// A wall clock a test moves by hand.
public final class ManualWallClock: Sendable {
    private let value: Mutex<Int64>

    /// Starts at `nowMs` and stays there until `advance(byMs:)` moves it.
    public init(nowMs: Int64) { value = Mutex(nowMs) }

    /// The current reading; behind a lock, so any task may read it while a test advances it.
    public var nowMs: Int64 { value.withLock { $0 } }

    /// Moves the time by `ms` (negative moves it back); every `WallClock.manual` view of this clock sees it at once.
    public func advance(byMs ms: Int64) { value.withLock { $0 += ms } }
}
