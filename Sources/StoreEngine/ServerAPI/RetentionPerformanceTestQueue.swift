import Synchronization

/// The performance tests a store has started and not yet finished, handed to the one runner
/// (`RetentionPerformanceTestRunner` in StoreNotifications) that makes their HTTP calls, and how
/// far each has got (`numPending` while it runs). One per `AppStore`: two stores share nothing.
final class RetentionPerformanceTestQueue: Sendable {
    private struct State {
        var continuation: AsyncStream<PerformanceTestRun>.Continuation?
        var stream: AsyncStream<PerformanceTestRun>?
        /// Calls finished so far, by request ID, for tests running in this process.
        var finishedCalls: [String: Int] = [:]
    }
    private let state: Mutex<State>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: PerformanceTestRun.self)
        state = Mutex(State(continuation: continuation, stream: stream))
    }

    /// The started tests, once: a second caller gets a stream that ends at once (a store has
    /// one runner).
    func runs() -> AsyncStream<PerformanceTestRun> {
        state.withLock { state in
            defer { state.stream = nil }
            return state.stream ?? AsyncStream { $0.finish() }
        }
    }

    func submit(_ run: PerformanceTestRun) {
        state.withLock { state in
            state.finishedCalls[run.requestId] = 0
            _ = state.continuation?.yield(run)
        }
    }

    func progress(_ requestId: String, finishedCalls: Int) {
        state.withLock { state in
            if state.finishedCalls[requestId] != nil { state.finishedCalls[requestId] = finishedCalls }
        }
    }

    func finished(_ requestId: String) {
        _ = state.withLock { $0.finishedCalls.removeValue(forKey: requestId) }
    }

    /// Calls finished so far, or nil when the test is not running in this process.
    func finishedCalls(_ requestId: String) -> Int? {
        state.withLock { $0.finishedCalls[requestId] }
    }
}
