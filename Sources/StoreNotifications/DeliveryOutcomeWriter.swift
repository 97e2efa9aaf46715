import StoreEngine
import Synchronization

/// Writes a pass's delivery outcomes back through the engine in chunks while the pass goes on
/// sending: one write at a time, the next chunk taken when it is done. Awaiting each write with
/// the sending stopped left the receiver idle for the length of a commit every thousand
/// deliveries. `finish` returns once every outcome is durable, so a pass still ends with its
/// outcomes written (and a failed write still fails the pass).
final class DeliveryOutcomeWriter {
    private let store: AppStore
    private let chunk: Int
    private var pending: [NotificationDeliveryOutcome] = []
    private var writing: Task<Void, any Error>?
    private let busy = Flag()

    /// Whether a write is in progress, cleared by the writing task itself.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    init(store: AppStore, chunk: Int) {
        self.store = store
        self.chunk = max(1, chunk)
        pending.reserveCapacity(self.chunk)
    }

    func add(_ outcome: NotificationDeliveryOutcome) async throws {
        pending.append(outcome)
        guard pending.count >= chunk else { return }
        // A write still running: keep collecting, unless the database is so slow that outcomes
        // pile up, then wait for it (memory stays bounded).
        if busy.value.load(ordering: .acquiring) && pending.count < 8 * chunk { return }
        try await writing?.value
        start()
    }

    /// Writes what is left and waits for every write.
    func finish() async throws {
        try await writing?.value
        writing = nil
        if !pending.isEmpty {
            try await store.recordDeliveryOutcomes(pending)
            pending = []
        }
    }

    private func start() {
        let batch = pending
        pending = []
        pending.reserveCapacity(chunk)
        let (store, busy) = (store, busy)
        busy.value.store(true, ordering: .releasing)
        writing = Task {
            defer { busy.value.store(false, ordering: .releasing) }
            try await store.recordDeliveryOutcomes(batch)
        }
    }
}
