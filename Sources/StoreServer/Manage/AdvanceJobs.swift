import Foundation
import StoreEngine
import Synchronization

/// Clock advances started from the dashboard. A long jump (a year of renewals) takes a while to
/// catch up, so the form starts it here and the browser watches its progress on a page that
/// refreshes itself; the jump itself is the engine's `advanceTime`. One registry per router.
final class AdvanceJobs: Sendable {
    struct Job: Sendable {
        var world: String
        var duration: String
        var fraction: Double = 0
        var finished = false
        var failure: String?
    }

    private let jobs = Mutex<[String: Job]>([:])

    /// Starts the advance and returns the job's ID.
    func start(store: AppStore, world: String, jump: TimeJump, duration: String) -> String {
        let id = UUID().uuidString.lowercased()
        jobs.withLock { jobs in
            // Forget finished jobs beyond the last few hundred.
            if jobs.count > 500 { for key in jobs.filter({ $0.value.finished }).map(\.key) { jobs.removeValue(forKey: key) } }
            jobs[id] = Job(world: world, duration: duration)
        }
        Task {
            do {
                _ = try await store.advanceTime(world, by: jump) { [weak self] fraction in
                    self?.jobs.withLock { $0[id]?.fraction = fraction }
                }
                jobs.withLock { $0[id]?.finished = true; $0[id]?.fraction = 1 }
            } catch {
                let message = (error as? StoreError)?.message ?? "the clock could not advance"
                jobs.withLock { $0[id]?.finished = true; $0[id]?.failure = message }
            }
        }
        return id
    }

    func job(_ id: String) -> Job? { jobs.withLock { $0[id] } }
}
