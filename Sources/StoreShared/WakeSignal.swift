import Synchronization

/// Wakes a waiting background loop early: the one wake primitive of the store and the backend.
///
/// `signal()` wakes the current waiter, or, while nobody waits, is remembered for the next `wait`
/// (several signals while nobody waits count once). `wait(timeout:)` returns on a signal, when its
/// timeout passes, or when its task is cancelled, whichever comes first.
///
/// A timeout only ever ends the wait it belongs to: it never leaves a signal behind. (An earlier
/// version woke itself through `signal()` from a timer that still fired when cancelled, so every
/// early wake left a signal for the next wait, and the webhook loop never slept again: issue #27.)
public final class WakeSignal: Sendable {
    private enum Wait {
        case starting
        case waiting(CheckedContinuation<Void, Never>)
        case ended
    }

    private struct State {
        var pending = false
        var nextTicket = 0
        var waits: [Int: Wait] = [:]
    }

    private let state = Mutex(State())

    /// Starts with no signal pending and nobody waiting.
    public init() {}

    /// Wakes every waiter now, or the next `wait` when nobody waits yet.
    public func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            var woken: [CheckedContinuation<Void, Never>] = []
            for (ticket, wait) in state.waits {
                if case .waiting(let continuation) = wait {
                    woken.append(continuation)
                    state.waits[ticket] = nil
                }
            }
            if woken.isEmpty { state.pending = true }
            return woken
        }
        for waiter in woken { waiter.resume() }
    }

    /// Waits for a signal (one already pending returns at once), the timeout, or cancellation.
    /// `nil` waits without a timeout.
    public func wait(timeout: Duration? = nil) async {
        let ticket = state.withLock { state -> Int? in
            if state.pending {
                state.pending = false
                return nil
            }
            defer { state.nextTicket += 1 }
            state.waits[state.nextTicket] = .starting
            return state.nextTicket
        }
        guard let ticket else { return }
        let timer = timeout.map { timeout in
            Task { [weak self] in
                // Cancelled means the wait already ended: no wake, and nothing left pending.
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.end(ticket)
            }
        }
        defer {
            timer?.cancel()
            state.withLock { _ = $0.waits.removeValue(forKey: ticket) }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    if case .ended = state.waits[ticket] { return true }
                    if Task.isCancelled { return true }
                    state.waits[ticket] = .waiting(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            self.end(ticket)
        }
    }

    /// Whether a signal waits for the next `wait` (for tests: a timeout must never leave one).
    public var isPending: Bool { state.withLock { $0.pending } }

    /// How many waits are under way (for tests: none is left behind after it returned).
    public var waitsUnderWay: Int { state.withLock { $0.waits.count } }

    /// Ends one wait (its timeout, or its task's cancellation), whether it waits already or is
    /// about to.
    private func end(_ ticket: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            switch state.waits[ticket] {
            case .waiting(let continuation):
                state.waits[ticket] = nil
                return continuation
            case .starting:
                state.waits[ticket] = .ended
                return nil
            case .ended, nil:
                return nil
            }
        }
        waiter?.resume()
    }
}
