import Dispatch
import Foundation

/// Runs the async work behind Apple's synchronous `SKTestSession` calls (`clearTransactions()`,
/// `expireSubscription(productIdentifier:)`, the property setters) and waits for it, so the call
/// returns only once its effect is in the store.
///
/// The work runs with a task-executor preference for a serial dispatch queue of its own (and so
/// do the default actors it calls into, SE-0417), not on Swift's cooperative pool: a test that
/// blocks a pool thread here does not also wait for a free pool thread to do the work.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        Task(executorPreference: QueueExecutor.shared) {
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

private final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<T, any Error>?
    var value: Result<T, any Error>? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A task executor over a dispatch queue that is not Swift's cooperative pool.
final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = QueueExecutor()
    private let queue = DispatchQueue(label: "StoreKitTest.blocking", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
