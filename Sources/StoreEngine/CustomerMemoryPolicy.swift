import Synchronization

/// How many customers a world keeps in memory. A store that runs for weeks meets ever-new
/// customers (a shared sandbox, a CI store); without a bound each one would stay in memory for
/// good. Beyond the bound the least recently used customers are forgotten and read back from the
/// database on their next use (World+Eviction.swift).
public struct CustomerMemoryPolicy: Sendable, Equatable {
    /// `openstore serve`'s default (`--customers-in-memory`): 5 to 12 MB per world at the 0.5 to
    /// 1.2 KB a customer was measured to take (docs/reliability.md, "Bounded memory").
    public static let defaultMaximumCustomers = 10_000

    /// Customers a world keeps in memory before it forgets the least recently used ones.
    public var maximumCustomers: Int
    /// A customer used more recently than this (real time) is never forgotten: a request that
    /// read the customer and is waiting on the database finds it as it left it.
    public var minimumIdleMs: Int64

    /// A policy; at least one customer is kept, and a negative idle time counts as none.
    public init(maximumCustomers: Int = CustomerMemoryPolicy.defaultMaximumCustomers, minimumIdleMs: Int64 = 60_000) {
        self.maximumCustomers = max(maximumCustomers, 1)
        self.minimumIdleMs = max(minimumIdleMs, 0)
    }

    /// How far past the bound memory may grow before a sweep: sweeping on every new customer
    /// would sort the whole list each time.
    var slack: Int { max(maximumCustomers / 10, 1) }
}

/// The store's policy, shared by all its worlds (one reference in `WorldEnvironment`).
final class CustomerMemorySetting: Sendable {
    private let value = Mutex(CustomerMemoryPolicy())

    var policy: CustomerMemoryPolicy {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

/// Which customers a world holds in memory, when each was last used, and which have changes
/// still being written. Pure bookkeeping: the world decides what to drop (World+Eviction.swift).
struct CustomerResidency: Sendable {
    struct Use: Sendable {
        var order: UInt64
        var realMs: Int64
    }

    private var tick: UInt64 = 0
    /// Customer name → its last use.
    private(set) var lastUse: [String: Use] = [:]
    /// Customer name → commits under way that carry its changes.
    private var unwritten: [String: Int] = [:]
    /// Customer name → reads of its data from the database under way. Forgetting the customer
    /// meanwhile would drop changes made after the read's snapshot (its `pendingHistory`, a newer
    /// chain) that the read then cannot bring back.
    private var loading: [String: Int] = [:]
    /// The resident count at which the next sweep runs.
    var nextSweepAt = 0
    /// When a sweep that left customers still in use (over the bound) tries again, real time.
    var retrySweepAtMs = Int64.max
    /// Scheduled chains forgotten so far: while there are any, the scheduler loads a missing
    /// chain from the database before its event fires.
    var evictedScheduledChains = 0

    var count: Int { lastUse.count }

    mutating func touch(_ name: String, realMs: Int64) {
        tick &+= 1
        lastUse[name] = Use(order: tick, realMs: realMs)
    }

    mutating func writing(_ names: Set<String>) {
        for name in names { unwritten[name, default: 0] += 1 }
    }

    mutating func written(_ names: Set<String>) {
        for name in names {
            let left = unwritten[name, default: 0] - 1
            unwritten[name] = left > 0 ? left : nil
        }
    }

    func isWritten(_ name: String) -> Bool { unwritten[name] == nil }

    mutating func startLoading(_ name: String) { loading[name, default: 0] += 1 }

    mutating func finishLoading(_ name: String) {
        let left = loading[name, default: 0] - 1
        loading[name] = left > 0 ? left : nil
    }

    mutating func forget(_ name: String) { lastUse[name] = nil }

    /// The world dropped all it had loaded (a failed write, a reset): no one is in memory, and the
    /// reload puts every scheduled chain back. Marks of writes in flight stay until they settle.
    mutating func forgetLoaded() {
        lastUse = [:]
        evictedScheduledChains = 0
        nextSweepAt = 0
        retrySweepAtMs = .max
    }

    /// Up to `limit` customers to forget, least recently used first: idle since `idleBeforeMs`,
    /// every change written, no read of theirs under way, and not `pinned`.
    func evictable(limit: Int, idleBeforeMs: Int64, pinned: Set<String>) -> [String] {
        guard limit > 0 else { return [] }
        return lastUse
            .filter { $0.value.realMs <= idleBeforeMs && unwritten[$0.key] == nil && loading[$0.key] == nil && !pinned.contains($0.key) }
            .sorted { $0.value.order < $1.value.order }
            .prefix(limit)
            .map(\.key)
    }
}
