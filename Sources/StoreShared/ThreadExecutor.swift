import Foundation

/// A task executor with one thread of its own, for the few tasks that must run on time however
/// busy the cooperative pool is: a lease heartbeat that waits behind a clock jump's thousands of
/// queued jobs comes too late, and another instance takes the world over mid-jump.
/// `Task(executorPreference: ThreadExecutor.heartbeat) { … }` runs the task (and the default
/// actors it calls while they are free) here; such a task waits with `sleep(for:)`, whose timer
/// is this thread's too (`Task.sleep` wakes up through the pool).
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// Shared by every heartbeat in the process; its work is a few statements a second.
    public static let heartbeat = ThreadExecutor(name: "openstore-heartbeat")

    /// Where helper tasks a task starts for its own work should run (the statement tasks of
    /// `PostgresCloseWatch`): the heartbeat sets its thread here, so none of its statements waits
    /// for the pool. Unstructured tasks inherit it, as every task-local.
    @TaskLocal public static var preferred: ThreadExecutor?

    private struct Timer {
        var deadline: ContinuousClock.Instant
        var id: UInt64
        var continuation: CheckedContinuation<Void, Never>
    }

    // All guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var timers: [Timer] = []
    private var cancelled: Set<UInt64> = []
    private var lastId: UInt64 = 0

    /// Starts the thread; it lives as long as the process.
    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Waits `duration` on this thread's timer; returns early when the task is cancelled.
    public func sleep(for duration: Duration) async {
        let deadline = ContinuousClock.now + duration
        let id = nextId()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                condition.lock()
                if cancelled.remove(id) != nil {
                    condition.unlock()
                    continuation.resume()
                    return
                }
                timers.append(Timer(deadline: deadline, id: id, continuation: continuation))
                condition.signal()
                condition.unlock()
            }
        } onCancel: {
            condition.lock()
            if let index = timers.firstIndex(where: { $0.id == id }) {
                let timer = timers.remove(at: index)
                condition.unlock()
                timer.continuation.resume()
            } else {
                cancelled.insert(id)
                condition.unlock()
            }
        }
    }

    private func nextId() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        lastId += 1
        return lastId
    }

    private func run() {
        condition.lock()
        while true {
            let now = ContinuousClock.now
            let due = timers.filter { $0.deadline <= now }
            if !jobs.isEmpty || !due.isEmpty {
                timers.removeAll { $0.deadline <= now }
                let batch = jobs
                jobs.removeAll(keepingCapacity: true)
                condition.unlock()
                for timer in due { timer.continuation.resume() }
                for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
                condition.lock()
            } else if let next = timers.map(\.deadline).min() {
                let wait = now.duration(to: next)
                let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
                _ = condition.wait(until: Date().addingTimeInterval(seconds))
            } else {
                condition.wait()
            }
        }
    }
}
