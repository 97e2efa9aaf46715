import StoreEngine
import Synchronization

/// Writes a pass's delivery outcomes back through the engine in chunks while the pass goes on
/// sending: one write at a time, the next chunk taken when it is done. Awaiting each write with
/// the sending stopped left the receiver idle for the length of a commit every thousand
/// deliveries. `finish` returns once every outcome is durable, so a pass still ends with its
/// outcomes written, and a failed write still fails the pass.
final class DeliveryOutcomeWriter: Sendable {
    private struct State {
        var pending: [NotificationDeliveryOutcome] = []
        var writing: Task<Void, Never>?
        var busy = false
        var failure: (any Error)?
        /// Outcomes received: the attempts the pass made.
        var count = 0
        /// An attempt failed to connect or lost its connection (not an HTTP answer).
        var sawConnectionFailure = false
    }

    private let store: AppStore
    private let chunk: Int
    private let state = Mutex(State())

    init(store: AppStore, chunk: Int) {
        self.store = store
        self.chunk = max(1, chunk)
    }

    var count: Int { state.withLock { $0.count } }
    var sawConnectionFailure: Bool { state.withLock { $0.sawConnectionFailure } }

    func add(_ outcome: NotificationDeliveryOutcome, connectionFailed: Bool) async {
        let (batch, slow): ([NotificationDeliveryOutcome]?, Task<Void, Never>?) = state.withLock { state in
            state.pending.append(outcome)
            state.count += 1
            if connectionFailed { state.sawConnectionFailure = true }
            guard state.pending.count >= chunk else { return (nil, nil) }
            // A write still running: keep collecting, unless the database is so slow that
            // outcomes pile up; then the sender waits for it (memory stays bounded).
            if state.busy { return (nil, state.pending.count >= 8 * chunk ? state.writing : nil) }
            state.busy = true
            defer { state.pending = [] }
            return (state.pending, nil)
        }
        if let slow { await slow.value }
        if let batch { start(batch) }
    }

    /// Writes what is left, waits for every write, and reports the first failure.
    func finish() async throws {
        // Called once every sender is done: no write starts after this one.
        if let running = state.withLock({ $0.writing }) { await running.value }
        let (rest, failure) = state.withLock { state in
            defer { state.pending = [] }
            return (state.pending, state.failure)
        }
        if let failure { throw failure }
        if !rest.isEmpty { try await store.recordDeliveryOutcomes(rest) }
    }

    private func start(_ batch: [NotificationDeliveryOutcome]) {
        let task = Task {
            do {
                try await self.store.recordDeliveryOutcomes(batch)
            } catch {
                self.state.withLock { $0.failure = $0.failure ?? error }
            }
            self.state.withLock { $0.busy = false }
        }
        state.withLock { $0.writing = task }
    }
}
