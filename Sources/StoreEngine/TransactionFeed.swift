import Synchronization
import StoreStorage

/// Tells listeners which transactions changed once a write is durable: what `Transaction.updates`
/// is pushed from. Worlds publish after each commit; listeners subscribe per customer of an app.
/// Nothing here knows HTTP; a front end turns the stream into whatever it serves.
final class TransactionFeed: Sendable {
    struct Key: Hashable, Sendable {
        var world: String
        var bundleId: String
        var customer: String
    }

    private struct Listener: Sendable {
        var key: Key
        var continuation: AsyncStream<[TransactionRecord]>.Continuation
    }

    private let listeners = Mutex<[Int: Listener]>([:])
    private let nextId = Atomic<Int>(0)

    /// A stream of committed changes for one customer, in commit order. Ends when the subscriber
    /// stops iterating (its `onTermination` removes it).
    func subscribe(_ key: Key) -> AsyncStream<[TransactionRecord]> {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: [TransactionRecord].self, bufferingPolicy: .unbounded)
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        listeners.withLock { $0[id] = Listener(key: key, continuation: continuation) }
        return stream
    }

    /// Hands each listener the committed transactions of its customer. Cheap when nobody listens.
    func publish(world: String, _ records: [TransactionRecord]) {
        guard !records.isEmpty else { return }
        let targets = listeners.withLock { listeners in listeners.values.filter { $0.key.world == world } }
        guard !targets.isEmpty else { return }
        var byKey: [Key: [TransactionRecord]] = [:]
        for record in records {
            byKey[Key(world: world, bundleId: record.bundleId, customer: record.customer), default: []].append(record)
        }
        for target in targets {
            if let changed = byKey[target.key] { target.continuation.yield(changed) }
        }
    }

    var listenerCount: Int { listeners.withLock { $0.count } }
}
