import Foundation
import SQLKit
import Synchronization

/// Group commit for ingest (#33): what concurrent requests verified (notifications, the app's
/// transactions) is applied in batches, one transaction per batch, instead of one transaction
/// each. A batch loads what its writes read in a few statements, applies them in arrival order
/// in memory, and saves their rows together (`LedgerStore`). If any write fails, the batch is
/// rolled back and run again with each write under a savepoint of its own, so the failing one
/// rolls back and fails alone. Every caller resumes only after its batch's COMMIT (or with its
/// own error). One batch commits at a time, so "newest signing wins" and duplicate detection
/// see every earlier write, in this batch or the last.
final class IngestBatcher: Sendable {
    private struct Pending: Sendable {
        let keys: LedgerKeys
        let apply: @Sendable (LedgerStore) async throws -> any Sendable
        let finish: @Sendable (Result<any Sendable, any Error>) -> Void
    }

    private struct State {
        var queue: [Pending] = []
        var draining = false
    }

    private let database: BackendDatabase
    private let state = Mutex(State())
    /// Transactions committed so far (tests, and a figure for the benchmark).
    private let committed = Atomic<Int>(0)

    /// Writes waiting for a batch.
    var queued: Int { state.withLock { $0.queue.count } }
    /// Batches committed so far.
    var batches: Int { committed.load(ordering: .relaxed) }

    /// Writes per transaction at most: a batch this size commits in tens of milliseconds, so a
    /// request that arrives behind it waits little longer than it would behind one write.
    static let maxBatch = 256

    init(database: BackendDatabase) {
        self.database = database
    }

    /// Runs `body` in the next batch's transaction; returns once that transaction committed.
    /// `keys` names what `body` reads, so the batch loads it with the others' (`LedgerStore.load`).
    func write<T: Sendable>(keys: LedgerKeys = LedgerKeys(),
                            _ body: @escaping @Sendable (LedgerStore) async throws -> T) async throws -> T {
        let result: any Sendable = try await withCheckedThrowingContinuation { continuation in
            let pending = Pending(keys: keys, apply: { try await body($0) }, finish: { continuation.resume(with: $0) })
            let start = state.withLock { state -> Bool in
                state.queue.append(pending)
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if start { Task { await self.drain() } }
        }
        return result as! T
    }

    /// Commits batches until the queue is empty; one drain runs at a time.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [Pending] in
                let batch = Array(state.queue.prefix(Self.maxBatch))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            await commit(batch)
        }
    }

    private func commit(_ batch: [Pending]) async {
        var results: [Result<any Sendable, any Error>]
        do {
            results = try await database.write { store in
                try await LedgerStore.writing(on: store, keys: batch.map(\.keys)) { ledger in
                    var results: [Result<any Sendable, any Error>] = []
                    for item in batch { results.append(.success(try await item.apply(ledger))) }
                    return results
                }
            }
        } catch {
            guard batch.count > 1 else {
                batch[0].finish(.failure(error))
                return
            }
            do {
                results = try await database.write { store in try await Self.oneByOne(batch, store) }
            } catch {
                for item in batch { item.finish(.failure(error)) }
                return
            }
        }
        committed.add(1, ordering: .relaxed)
        for (item, result) in zip(batch, results) { item.finish(result) }
    }

    /// The batch again, each write under its own savepoint, so one that fails fails alone.
    private static func oneByOne(_ batch: [Pending], _ store: BackendTransaction) async throws -> [Result<any Sendable, any Error>] {
        var results: [Result<any Sendable, any Error>] = []
        for (index, item) in batch.enumerated() {
            let savepoint = SQLRaw("w\(index)")
            try await store.sql.raw("SAVEPOINT \(savepoint)").run()
            do {
                results.append(.success(try await LedgerStore.writing(on: store, keys: [item.keys], item.apply)))
            } catch let failure {
                // Undo this write alone; if even that fails, the transaction is gone.
                do { try await store.sql.raw("ROLLBACK TO SAVEPOINT \(savepoint)").run() } catch { throw failure }
                results.append(.failure(failure))
            }
            try await store.sql.raw("RELEASE SAVEPOINT \(savepoint)").run()
        }
        return results
    }
}
