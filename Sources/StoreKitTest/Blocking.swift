import Dispatch
import Foundation
import Synchronization

/// Runs the async work behind Apple's synchronous `SKTestSession` calls (`clearTransactions()`,
/// `expireSubscription(productIdentifier:)`, the property setters) and waits for it, so the call
/// returns only once its effect is in the store.
///
/// The work runs on `ElasticExecutor`, whose threads grow with demand, so a test that blocks a
/// thread here never leaves the store without a thread to do the work on.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        _ = ElasticExecutor.installed
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        Task(executorPreference: ElasticExecutor.shared) {
            do {
                result.value = .success(try await work())
            } catch {
                result.value = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try result.value!.get()
    }
}

private final class ResultBox<T: Sendable>: Sendable {
    private let stored = Mutex<Result<T, any Error>?>(nil)
    var value: Result<T, any Error>? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

