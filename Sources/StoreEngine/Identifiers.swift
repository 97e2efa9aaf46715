import StoreShared
import Synchronization

/// Store-wide counters for transaction IDs and the change sequence, and the source of every
/// UUID the engine makes. IDs are unique across worlds, so a transaction ID alone finds its world.
final class Identifiers: Sendable {
    private let state: Mutex<(id: Int64, seq: Int64)>
    private let uuids: UUIDSource

    /// Transaction IDs start where Apple's production IDs do, so they look familiar in logs.
    static let firstTransactionId: Int64 = 2_000_000_000_000_000

    init(lastId: Int64, lastSeq: Int64, uuids: UUIDSource = .system) {
        state = Mutex((max(lastId, Self.firstTransactionId), lastSeq))
        self.uuids = uuids
    }

    /// A new UUID, lowercased (notification UUIDs, nonces, message and refund-request IDs).
    func uuid() -> String { uuids.nextString() }

    func nextId() -> Int64 {
        state.withLock { $0.id += 1; return $0.id }
    }

    /// The last ID and change number handed out.
    var current: (id: Int64, seq: Int64) { state.withLock { ($0.id, $0.seq) } }

    /// Continues from a block taken in the database (many instances, `WorldOwnership`); never down.
    func moveUp(id: Int64, seq: Int64) {
        state.withLock {
            $0.id = max($0.id, id)
            $0.seq = max($0.seq, seq)
        }
    }

    func nextSeq() -> Int64 {
        state.withLock { $0.seq += 1; return $0.seq }
    }
}
