import Synchronization

/// The worlds this process holds leases on, with their epochs, when it is one of many instances
/// (`WorldOwnership` keeps it). Every write of a world goes through the database with the epoch
/// written here, whoever makes it (a request, the scheduler, notification deliveries, a
/// Transaction Manager job), so no write of a world escapes the fencing check; a world not held
/// is written under epoch -1, which never matches, and is refused (`LeaseLost`).
public final class LeaseBook: Sendable {
    private let state = Mutex<(active: Bool, epochs: [String: Int64])>((false, [:]))

    /// Starts inactive: with one process, nothing is fenced until `activate()`.
    public init() {}

    /// Many instances: from now on every write of a world is fenced.
    public func activate() { state.withLock { $0.active = true } }
    /// Records the epoch this process was granted for `world`; its writes carry it from now on.
    public func hold(_ world: String, epoch: Int64) { state.withLock { $0.epochs[world] = epoch } }
    /// Forgets a world given up or lost; once active, later writes of it carry epoch -1 and are refused.
    public func drop(_ world: String) { _ = state.withLock { $0.epochs.removeValue(forKey: world) } }

    /// The epochs a write of `worlds` must still find, each the lower of what its writer decided
    /// under (`explicit`) and what this process holds now; empty when there is one process.
    public func fence(_ worlds: some Sequence<String>, explicit: [String: Int64] = [:]) -> [String: Int64] {
        state.withLock { state in
            guard state.active else { return explicit }
            var out = explicit
            for world in worlds {
                let held = state.epochs[world] ?? -1
                out[world] = min(out[world] ?? held, held)
            }
            return out
        }
    }
}

extension WriteBatch {
    /// Every world a batch writes rows of.
    var worlds: Set<String> {
        var out = Set<String>()
        for r in customers { out.insert(r.world) }
        for r in appTransactions { out.insert(r.world) }
        for r in transactions { out.insert(r.world) }
        for r in subscriptions { out.insert(r.world) }
        for r in events { out.insert(r.world) }
        for r in worldRecords { out.insert(r.world) }
        for write in notifications { if case .emit(let record) = write { out.insert(record.world) } }
        return out
    }
}
