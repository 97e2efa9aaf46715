import StoreModel
import Synchronization

/// The signed form of transaction revisions already handed out, so a history page or the
/// customer page copies a JWS instead of parsing the stored payload and signing it again.
///
/// A revision is keyed by its transaction ID and change number (`seq`): any change to a
/// transaction takes a new change number, so a cached form never outlives the revision it signs.
/// Apple signs each time it hands data out (`signedDate` is "now"), so a cached form is reused
/// only while it is at most `maxAgeMs` old on the world's clock, no longer than a response spends
/// on the wire; after a clock advance the transaction is signed afresh. Memory is bounded:
/// past `capacity` entries the oldest insertions are dropped first.
final class SignatureCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: Int64
        var seq: Int64
    }

    private struct State {
        var entries: [Key: Signed<TransactionPayload>] = [:]
        /// Insertion order, as a ring: `order[next]` is the oldest key once the ring is full.
        var order: [Key] = []
        var next = 0
    }

    let capacity: Int
    let maxAgeMs: Int64
    private let state = Mutex(State())

    init(capacity: Int = 4_096, maxAgeMs: Int64 = 1_000) {
        self.capacity = max(1, capacity)
        self.maxAgeMs = maxAgeMs
    }

    /// The cached signed form of this revision if it was signed within `maxAgeMs` before `nowMs`.
    func signed(id: Int64, seq: Int64, nowMs: Int64) -> Signed<TransactionPayload>? {
        let maxAge = maxAgeMs
        return state.withLock { state in
            guard let found = state.entries[Key(id: id, seq: seq)],
                  case let signedMs = found.payload.signedDate, signedMs <= nowMs, nowMs - signedMs <= maxAge else { return nil }
            return found
        }
    }

    /// Remembers a revision's signed form, replacing an older signature of the same revision.
    func store(id: Int64, seq: Int64, _ signed: Signed<TransactionPayload>) {
        let key = Key(id: id, seq: seq)
        let capacity = capacity
        state.withLock { state in
            if state.entries.updateValue(signed, forKey: key) != nil { return }
            if state.order.count < capacity {
                state.order.append(key)
            } else {
                state.entries[state.order[state.next]] = nil
                state.order[state.next] = key
                state.next = (state.next + 1) % capacity
            }
        }
    }

    /// How many revisions are held (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
