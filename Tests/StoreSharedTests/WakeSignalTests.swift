import Foundation
import Testing
import StoreShared

/// The backend's one wake primitive. Issue #27: a wait's cancelled timer used to signal anyway, so
/// every early wake-up left a signal behind and the webhook loop never slept again.
@Suite struct WakeSignalTests {
    @Test func aSignalWhileNobodyWaitsIsKeptForTheNextWait() async {
        let wake = WakeSignal()
        wake.signal()
        wake.signal()
        #expect(wake.isPending)
        await wake.wait(timeout: .seconds(3600))  // returns at once: the pending signal
        #expect(!wake.isPending)  // two signals while nobody waited count once
    }

    @Test func aSignalWakesTheWaiter() async {
        let wake = WakeSignal()
        let waiting = Task { await wake.wait(timeout: .seconds(3600)) }
        while wake.waitsUnderWay == 0 { await Task.yield() }
        wake.signal()
        await waiting.value
        #expect(!wake.isPending)
        #expect(wake.waitsUnderWay == 0)
    }

    @Test func aTimeoutEndsOnlyItsOwnWaitAndLeavesNoSignal() async throws {
        let wake = WakeSignal()
        await wake.wait(timeout: .milliseconds(1))
        #expect(!wake.isPending)
        #expect(wake.waitsUnderWay == 0)
    }

    /// The loop of the fault: woken early, then waiting again. The earlier wait's timer is
    /// cancelled; given time to run, it must not leave a signal for the next wait.
    @Test(arguments: 0..<20) func anEarlyWakeLeavesNothingForTheNextWait(_ round: Int) async throws {
        let wake = WakeSignal()
        let waiting = Task { await wake.wait(timeout: .milliseconds(5)) }
        while wake.waitsUnderWay == 0 { await Task.yield() }
        wake.signal()
        await waiting.value
        try await Task.sleep(for: .milliseconds(30))  // past the cancelled timer's deadline
        #expect(!wake.isPending, "round \(round): a cancelled timer signalled")
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async {
        let wake = WakeSignal()
        let waiting = Task { await wake.wait() }
        while wake.waitsUnderWay == 0 { await Task.yield() }
        waiting.cancel()
        await waiting.value
        #expect(!wake.isPending)
        #expect(wake.waitsUnderWay == 0)
    }

    @Test func aTaskCancelledBeforeItWaitsDoesNotWait() async {
        let wake = WakeSignal()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await wake.wait()
        }
        await waiting.value
        #expect(wake.waitsUnderWay == 0)
    }

    @Test func everyWaiterWakesOnOneSignal() async {
        let wake = WakeSignal()
        let waiters = (0..<4).map { _ in Task { await wake.wait(timeout: .seconds(3600)) } }
        while wake.waitsUnderWay < 4 { await Task.yield() }
        wake.signal()
        for waiter in waiters { await waiter.value }
        #expect(!wake.isPending)
    }
}
