import StoreModel
import Synchronization

/// The signed form of transaction revisions already handed out, so a history page or the
/// customer page copies a JWS instead of parsing the stored payload and signing it again.
///
/// A revision is its change number (`seq`): any change to a transaction takes the next number of
/// the store-wide change sequence, and no two rows share one (a unique index), so a cached form
/// never outlives the revision it signs. Keyed by `seq` alone, a history page finds its signed
/// transactions from the numbers its index holds, without reading the rows (`signed(seq:nowMs:)`).
/// Apple signs each time it hands data out (`signedDate` is "now"), so a cached form is reused
/// only while it is at most `maxAgeMs` old on the world's clock, no longer than a response spends
/// on the wire; after a clock advance the transaction is signed afresh. Memory is bounded:
/// past `capacity` entries the oldest insertions are dropped first.
final class SignatureCache: Sendable {
    /// A reference, so a lookup retains one object instead of copying the payload's fields.
    private final class Entry: Sendable {
        let id: Int64
        let signedMs: Int64
        let jws: String
        let signed: Signed<TransactionPayload>
        init(id: Int64, signed: Signed<TransactionPayload>) {
            self.id = id
            self.signedMs = signed.payload.signedDate
            self.jws = signed.jws
            self.signed = signed
        }
        func isFresh(nowMs: Int64, maxAgeMs: Int64) -> Bool { signedMs <= nowMs && nowMs - signedMs <= maxAgeMs }
    }

    private struct State {
        var entries: [Int64: Entry] = [:]
        /// Insertion order of change numbers, as a ring: `order[next]` is the oldest once full.
        var order: [Int64] = []
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
            guard let found = state.entries[seq], found.id == id, found.isFresh(nowMs: nowMs, maxAgeMs: maxAge) else { return nil }
            return found.signed
        }
    }

    /// The cached signed form of the revision with this change number, as `signed(id:seq:nowMs:)`.
    func signed(seq: Int64, nowMs: Int64) -> Signed<TransactionPayload>? {
        let maxAge = maxAgeMs
        return state.withLock { state in
            guard let found = state.entries[seq], found.isFresh(nowMs: nowMs, maxAgeMs: maxAge) else { return nil }
            return found.signed
        }
    }

    /// The JWS of every revision in `seqs`, in that order, if all are cached and fresh; nil as
    /// soon as one is not (one lock for a whole history page).
    func jwsOfAll(seqs: some Collection<Int64>, nowMs: Int64) -> [String]? {
        let maxAge = maxAgeMs
        return state.withLock { state in
            var out: [String] = []
            out.reserveCapacity(seqs.count)
            for seq in seqs {
                guard let entry = state.entries[seq], entry.isFresh(nowMs: nowMs, maxAgeMs: maxAge) else { return nil }
                out.append(entry.jws)
            }
            return out
        }
    }

    /// Remembers a revision's signed form, replacing an older signature of the same revision.
    func store(id: Int64, seq: Int64, _ signed: Signed<TransactionPayload>) {
        let capacity = capacity
        state.withLock { state in
            if state.entries.updateValue(Entry(id: id, signed: signed), forKey: seq) != nil { return }
            if state.order.count < capacity {
                state.order.append(seq)
            } else {
                state.entries[state.order[state.next]] = nil
                state.order[state.next] = seq
                state.next = (state.next + 1) % capacity
            }
        }
    }

    /// How many revisions are held (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
