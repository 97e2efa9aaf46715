import Synchronization
import StoreStorage

/// Tells listeners which transactions changed once a write is durable: what `Transaction.updates`
/// is pushed from. Nothing here knows HTTP; a front end turns the stream into whatever it serves.
///
/// Changes are released in change-number (`seq`) order, and only as a committed prefix: a batch
/// reserves its place before it is written, and a change is released only once every batch
/// holding a lower change number is durable or dropped. Writes overlap (the scheduler commits
/// from a detached task while the world decides the next batch), so a higher change number can
/// become durable first; it waits here for the lower one. A change number handed to a client is
/// therefore a resume point with nothing missing below it.
///
/// This relies on one rule of the worlds: a batch's change numbers are taken on the world's actor
/// and the batch is reserved in the same turn, with no suspension in between (`World.commit`,
/// the scheduler). So when a change is released, every lower change number of its world is
/// either released, reserved, or was never going to be written.
final class TransactionFeed: Sendable {
    struct Key: Hashable, Sendable {
        var world: String
        var bundleId: String
        var customer: String
    }

    /// A batch's claim on its place in the change sequence, from the moment its changes are decided
    /// until they are durable (`publish`) or dropped (`abandon`).
    struct Reservation: Sendable {
        fileprivate let world: String
        fileprivate let id: Int
    }

    /// What a listener is told: released transaction changes, in change order, or a hint that
    /// needs no place in that order (a subscription status or the storefront changed with no
    /// transaction). Hints are live only: a client that was away reads the state again anyway.
    enum Change: Sendable {
        case transactions([TransactionRecord])
        /// Subscriptions whose status may have changed with no transaction: an expiry, billing
        /// retry or grace period, a renewal preference (what `Status.updates` is pushed from).
        case subscriptions([SubscriptionRecord])
        /// The account's storefront changed (ISO 3166-1 alpha-3 code): `Storefront.updates`.
        case storefront(String)
    }

    private struct Listener: Sendable {
        var key: Key
        var continuation: AsyncStream<Change>.Continuation
    }

    /// One world's place in the change sequence.
    private struct Sequence: Sendable {
        /// Reserved batches not yet durable: reservation → its lowest change number.
        var reserved: [Int: Int64] = [:]
        /// Durable changes waiting for a lower reserved batch, in any order.
        var held: [TransactionRecord] = []
        /// The highest change number released; every lower one of this world is released or was never written.
        var released: Int64
    }

    private struct State: Sendable {
        var listeners: [Int: Listener] = [:]
        var worlds: [String: Sequence] = [:]
        var nextId = 0
    }

    private let state = Mutex(State())
    /// The change sequence when the store opened: everything at or below it was already durable.
    private let openedAt: Int64

    init(openedAt: Int64 = 0) {
        self.openedAt = openedAt
    }

    /// A stream of released changes for one customer, in change order, and the change number it
    /// starts after: every change of the customer at or below it is durable (read it from the
    /// database), every later one arrives on the stream. Ends when the subscriber stops iterating.
    func subscribe(_ key: Key) -> (changes: AsyncStream<Change>, after: Int64) {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .unbounded)
        let (id, after) = state.withLock { state in
            state.nextId += 1
            state.listeners[state.nextId] = Listener(key: key, continuation: continuation)
            return (state.nextId, state.worlds[key.world]?.released ?? openedAt)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return (stream, after)
    }

    /// Claims the place of a batch's transaction changes before they are written. Nil when the
    /// batch changes no transaction.
    func reserve(world: String, _ records: [TransactionRecord]) -> Reservation? {
        guard let lowest = records.lazy.map(\.seq).min() else { return nil }
        return state.withLock { state in
            state.nextId += 1
            state.worlds[world, default: Sequence(released: openedAt)].reserved[state.nextId] = lowest
            return Reservation(world: world, id: state.nextId)
        }
    }

    /// The reserved batch is durable: its changes are released with every held change that no
    /// longer waits for a lower one.
    func publish(_ reservation: Reservation?, _ records: [TransactionRecord]) {
        guard let reservation else { return }
        settle(reservation, adding: records)
    }

    /// The reserved batch was not written (its write failed): later changes stop waiting for it.
    func abandon(_ reservation: Reservation?) {
        guard let reservation else { return }
        settle(reservation, adding: [])
    }

    private func settle(_ reservation: Reservation, adding records: [TransactionRecord]) {
        state.withLock { state in
            var sequence = state.worlds[reservation.world, default: Sequence(released: openedAt)]
            sequence.reserved.removeValue(forKey: reservation.id)
            sequence.held += records
            let waitingFor = sequence.reserved.values.min() ?? .max
            var ready: [TransactionRecord] = []
            sequence.held.removeAll { record in
                guard record.seq < waitingFor else { return false }
                ready.append(record)
                return true
            }
            ready.sort { $0.seq < $1.seq }
            if let last = ready.last { sequence.released = max(sequence.released, last.seq) }
            state.worlds[reservation.world] = sequence
            guard !ready.isEmpty else { return }
            // Yielded under the lock, so two settlements cannot hand a listener changes out of order.
            Self.yield(Self.byCustomer(ready, world: reservation.world), as: Change.transactions, to: state.listeners)
        }
    }

    /// Records grouped by the listener key they concern.
    private static func byCustomer<Record>(_ records: some Swift.Sequence<Record>, world: String) -> [Key: [Record]]
    where Record: CustomerScoped {
        var byKey: [Key: [Record]] = [:]
        for record in records { byKey[Key(world: world, bundleId: record.bundleId, customer: record.customer), default: []].append(record) }
        return byKey
    }

    /// Hands each listener the records of its key, wrapped as one change.
    private static func yield<Record>(_ byKey: [Key: [Record]], as change: ([Record]) -> Change, to listeners: [Int: Listener]) {
        guard !byKey.isEmpty else { return }
        for target in listeners.values {
            if let records = byKey[target.key] { target.continuation.yield(change(records)) }
        }
    }

    /// A durable batch changed these subscriptions: their customers' listeners are told, except
    /// for the subscriptions whose transaction the same batch changed (that transaction is the news).
    func announce(world: String, subscriptions: [SubscriptionRecord], besides transactions: [TransactionRecord]) {
        guard !subscriptions.isEmpty else { return }
        let told = Set(transactions.map(\.originalId))
        let byKey = Self.byCustomer(subscriptions.lazy.filter { !told.contains($0.originalId) }, world: world)
        guard !byKey.isEmpty else { return }
        state.withLock { Self.yield(byKey, as: Change.subscriptions, to: $0.listeners) }
    }

    /// A customer's storefront changed (durable): every app's listener of that customer is told.
    func announce(world: String, customer: String, storefront: String) {
        state.withLock { state in
            for target in state.listeners.values where target.key.world == world && target.key.customer == customer {
                target.continuation.yield(.storefront(storefront))
            }
        }
    }

    /// A world taken over from another instance: every change at or below `seq` is durable (a
    /// first connection reads them from the database), later ones arrive as this instance commits.
    func open(world: String, releasedUpTo seq: Int64) {
        state.withLock { state in
            var sequence = state.worlds[world, default: Sequence(released: openedAt)]
            sequence.released = max(sequence.released, seq)
            state.worlds[world] = sequence
        }
    }

    /// Ends every stream of the world and forgets its place: another instance serves it now, and
    /// clients reconnect there (resuming from the last change number they got).
    func close(world: String) {
        let ending = state.withLock { state in
            state.worlds[world] = nil
            return state.listeners.values.filter { $0.key.world == world }.map(\.continuation)
        }
        for continuation in ending { continuation.finish() }
    }

    /// Reserved batches not yet durable in a world (for tests).
    func reservedCount(world: String) -> Int {
        state.withLock { $0.worlds[world]?.reserved.count ?? 0 }
    }

    var listenerCount: Int { state.withLock { $0.listeners.count } }
}

/// A stored row that belongs to one customer of one app: what a feed listener is keyed by.
protocol CustomerScoped {
    var bundleId: String { get }
    var customer: String { get }
}

extension TransactionRecord: CustomerScoped {}
extension SubscriptionRecord: CustomerScoped {}
