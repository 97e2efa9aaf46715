import SQLKit

/// Batches concurrent writes into one SQL transaction. While one batch commits, new writes queue
/// up and form the next batch, so throughput grows with load instead of paying one commit per write.
actor GroupCommitter {
    private let database: any SQLDatabase
    private var pending: [(WriteBatch, CheckedContinuation<Void, any Error>)] = []
    private var flushing = false
    /// Most writes merged into one SQL transaction; keeps statements under SQLite's bind limit.
    private let maxBatches = 256

    init(database: any SQLDatabase) {
        self.database = database
    }

    func submit(_ batch: WriteBatch) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            pending.append((batch, continuation))
            if !flushing {
                flushing = true
                Task { await self.flush() }
            }
        }
    }

    private func flush() async {
        while !pending.isEmpty {
            let take = min(pending.count, maxBatches)
            let items = Array(pending.prefix(take))
            pending.removeFirst(take)
            var merged = WriteBatch()
            for (batch, _) in items { merged.merge(batch) }
            do {
                try await commit(merged)
                for (_, continuation) in items { continuation.resume() }
            } catch {
                // One bad write must not fail its neighbours: retry each on its own.
                for (batch, continuation) in items {
                    do {
                        try await commit(batch)
                        continuation.resume()
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        }
        flushing = false
    }

    private func commit(_ batch: WriteBatch) async throws {
        try await database.raw("BEGIN").run()
        do {
            for statement in Upserts.statements(for: batch) {
                try await database.raw(statement).run()
            }
            try await database.raw("COMMIT").run()
        } catch {
            try? await database.raw("ROLLBACK").run()
            throw error
        }
    }
}
