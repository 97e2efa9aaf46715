import SQLKit
import StoreShared

/// Batches concurrent writes into one SQL transaction. While one batch commits, new writes queue
/// up and form the next batch, so throughput grows with load instead of paying one commit per write.
/// The same on both engines: only the engine's `commit` differs.
actor GroupCommitter {
    private let engine: any StorageEngine
    /// A unit of work: a batch (merged with its neighbours) or a job that runs alone.
    enum Work: Sendable {
        case batch(WriteBatch)
        case job(@Sendable (any SQLDatabase) async throws -> Void)
    }

    private var pending: [(Work, CheckedContinuation<Void, any Error>)] = []
    private var flushing = false
    /// Most writes merged into one SQL transaction; keeps statements under SQLite's bind limit.
    private let maxBatches = 256
    /// Per writer (`WriteFence.scope`), the lowest epoch still accepted: a failed batch refuses
    /// every batch its writer decided on the same memory, queued behind it or arriving before the
    /// writer has reloaded (see `WriteFence`).
    private var acceptedFrom: [String: Int] = [:]

    init(engine: any StorageEngine) {
        self.engine = engine
    }

    func submit(_ batch: WriteBatch) async throws {
        try await submit(work: .batch(batch))
    }

    /// Runs `job` in its own SQL transaction, between batches: every write to the store goes
    /// through here, so no statement ever lands inside another caller's transaction.
    func perform(_ job: @escaping @Sendable (any SQLDatabase) async throws -> Void) async throws {
        try await submit(work: .job(job))
    }

    private func submit(work: Work) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            pending.append((work, continuation))
            if !flushing {
                flushing = true
                Task { await self.flush() }
            }
        }
    }

    private func flush() async {
        while !pending.isEmpty {
            if case .job(let job) = pending[0].0 {
                let (_, continuation) = pending.removeFirst()
                do {
                    try await engine.transaction(job)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
                continue
            }
            var items: [(WriteBatch, CheckedContinuation<Void, any Error>)] = []
            while items.count < maxBatches, let first = pending.first, case .batch(let batch) = first.0 {
                pending.removeFirst()
                if refuseIfStale(batch, first.1) { continue }
                items.append((batch, first.1))
            }
            if items.isEmpty { continue }
            var merged = WriteBatch()
            for (batch, _) in items { merged.merge(batch) }
            do {
                try await engine.commit(merged)
                for (_, continuation) in items { continuation.resume() }
            } catch let error as StorageUnavailable {
                // The database is away: every write of the group fails alike, none is retried alone.
                for (batch, continuation) in items {
                    fenceOff(batch)
                    continuation.resume(throwing: error)
                }
            } catch {
                // One bad write must not fail its neighbours: retry each on its own.
                for (batch, continuation) in items {
                    if refuseIfStale(batch, continuation) { continue }
                    do {
                        try await engine.commit(batch)
                        continuation.resume()
                    } catch {
                        fenceOff(batch)
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
        flushing = false
    }

    /// A failed batch: its writer's later decisions on the same memory are refused from now on.
    private func fenceOff(_ batch: WriteBatch) {
        guard let fence = batch.fence else { return }
        acceptedFrom[fence.scope] = max(acceptedFrom[fence.scope] ?? Int.min, fence.epoch + 1)
    }

    /// Refuses (without writing) a batch decided on memory that held a failed batch's changes.
    private func refuseIfStale(_ batch: WriteBatch, _ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        guard let fence = batch.fence, let floor = acceptedFrom[fence.scope], fence.epoch < floor else { return false }
        continuation.resume(throwing: StorageUnavailable(
            "not written: it was decided after an earlier write of the same world failed; the world reloads from the database"))
        return true
    }
}
