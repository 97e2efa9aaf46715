import Foundation
import StoreShared
import Synchronization
import Testing

/// `ThreadExecutor`: a task that prefers it runs while every thread of the cooperative pool is
/// busy (a lease heartbeat during a clock jump).
@Suite struct ThreadExecutorTests {
    final class Flags: Sendable {
        let done = Atomic<Bool>(false)
        let gaveUp = Atomic<Int>(0)
    }

    @Test func aTaskOnItsThreadRunsWhileThePoolIsBusy() async throws {
        let flags = Flags()
        // Occupy every pool thread without yielding until the heartbeat-like task has run (or
        // 30 s have passed: the failure, instead of a hang).
        let spinners = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
            Task.detached {
                let deadline = Date().addingTimeInterval(30)
                while !flags.done.load(ordering: .acquiring) {
                    if Date() > deadline { flags.gaveUp.add(1, ordering: .relaxed); return }
                }
            }
        }
        let heartbeat = Task(executorPreference: ThreadExecutor.heartbeat) {
            await ThreadExecutor.heartbeat.sleep(for: .milliseconds(20))
            flags.done.store(true, ordering: .releasing)
        }
        for spinner in spinners { await spinner.value }
        await heartbeat.value
        #expect(flags.gaveUp.load(ordering: .relaxed) == 0, "the task waited for the pool")
    }

    @Test func aSleepEndsEarlyWhenItsTaskIsCancelled() async {
        let sleeper = Task(executorPreference: ThreadExecutor.heartbeat) {
            await ThreadExecutor.heartbeat.sleep(for: .seconds(3600))
            return Task.isCancelled
        }
        sleeper.cancel()
        #expect(await sleeper.value)
    }
}
