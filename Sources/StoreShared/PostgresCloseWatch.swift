import NIOCore
import PostgresNIO
import Synchronization

/// PostgresNIO hands a statement to its channel without a promise for the write. A statement sent
/// once the channel has closed (the server restarted, the network dropped, between our check of
/// `isClosed` and the send) is written nowhere, and its answer never comes: the caller would wait
/// forever. `guarded` races such work against the connection's close, so it fails at once with a
/// connection loss (`PostgresFailure.isConnectionLoss`), and the link's next use reconnects.
///
/// Every statement of the store and the backend runs through it: reads, BEGIN, a transaction's
/// body and COMMIT, ROLLBACK. The work runs in a task of its own, on the calling task's
/// `ThreadExecutor.preferred` when it has one, so the lease heartbeat's statements stay on its
/// thread, off the cooperative pool.
///
/// One watch per open connection, registered on its `closeFuture` once, holds the work in flight;
/// a statement that did reach the server is failed by PostgresNIO itself when the channel closes.
package final class PostgresCloseWatch: Sendable {
    private struct State {
        var closed = false
        var next = 0
        var waiters: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Each open connection's watch. An entry names its connection weakly: a connection freed
    /// before its close callback ran leaves an entry that a new connection at the same address
    /// must not inherit (it would be failed by the old one's close).
    private static let watches = Mutex<[ObjectIdentifier: (connection: WeakConnection, watch: PostgresCloseWatch)]>([:])

    /// The watch of `connection`, made (and hooked to its close) on first use.
    package static func of(_ connection: PostgresConnection) -> PostgresCloseWatch {
        let key = ObjectIdentifier(connection)
        let (watch, isNew) = watches.withLock { table in
            if let entry = table[key], entry.connection.value === connection { return (entry.watch, false) }
            let watch = PostgresCloseWatch()
            table[key] = (WeakConnection(connection), watch)
            return (watch, true)
        }
        if isNew {
            connection.closeFuture.whenComplete { _ in
                watches.withLock { table in
                    if table[key]?.watch === watch { table.removeValue(forKey: key) }
                }
                watch.close()
            }
        }
        return watch
    }

    private func close() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for wake in waiters { wake() }
    }

    /// Registers `wake` for the close; nil (and no registration) when already closed.
    private func register(_ wake: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.waiters[state.next] = wake
            return state.next
        }
    }

    private func unregister(_ token: Int) {
        _ = state.withLock { $0.waiters.removeValue(forKey: token) }
    }

    /// Runs `work` on `connection`, or fails with `ChannelError.ioOnClosedChannel` as soon as the
    /// connection is (or becomes) closed, whichever comes first. Work stuck on a closed channel
    /// is left behind (it holds nothing but its own frame); cancelling the caller cancels it.
    package static func guarded<T: Sendable>(_ connection: PostgresConnection, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let watch = of(connection)
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                race.continuation.withLock { $0 = continuation }
                guard let token = watch.register({ race.finish(.failure(ChannelError.ioOnClosedChannel)) }) else {
                    race.finish(.failure(ChannelError.ioOnClosedChannel))
                    return
                }
                race.start(on: ThreadExecutor.preferred) {
                    let result: Result<T, any Error>
                    do { result = .success(try await work()) } catch { result = .failure(error) }
                    watch.unregister(token)
                    race.finish(result)
                }
            }
        } onCancel: {
            race.cancel()
        }
    }
}

/// One `guarded` call: the caller's continuation, resumed once by whichever finishes first (the
/// work or the close), and the work's task, cancelled with the caller.
private final class Race<T: Sendable>: Sendable {
    let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)
    private let worker = Mutex<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))

    func finish(_ result: Result<T, any Error>) {
        continuation.withLock { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }

    func start(on executor: (any TaskExecutor)?, _ work: @escaping @Sendable () async -> Void) {
        let task = Task(executorPreference: executor) { await work() }
        let cancelled = worker.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        worker.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }
}

/// A connection named without keeping it alive.
private struct WeakConnection: @unchecked Sendable {
    weak var value: PostgresConnection?
    init(_ value: PostgresConnection) { self.value = value }
}
