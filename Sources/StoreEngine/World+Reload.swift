import Foundation
import StoreModel
import StoreStorage
import StoreShared

/// A world's memory never runs ahead of its database for long. A world applies a decision to
/// memory in the turn that makes it (so the next decision sees it) and writes it afterwards; when
/// that write fails, memory holds a change that never happened. The world then discards its
/// memory at once (a new generation), the group committer refuses the batches it decided on the
/// discarded memory (`WriteFence`), and the next operation (or the scheduler, backing off while
/// the database is away) reloads the world from the database: its settings and clock, its
/// families and the chains with events to come; customers and histories load again on use.
/// The same reload is what loads a world at start.
extension World {
    /// The fencing token for a batch decided now.
    var fence: WriteFence { WriteFence(scope: writeScope, epoch: generation) }

    /// Drops every piece of state kept in memory; the next `reloadIfNeeded` reads it back.
    /// Claims held by requests in flight stay (they release them).
    func discardMemory() {
        generation += 1
        needsReload = true
        schedulerWake.signal()
        // The clock and switches go back at once: a refused jump did not happen.
        settings = savedSettings
        clearMemory()
    }

    private func clearMemory() {
        clearLoadedState()
        decided = DecidedValues()
        sideTables.forgetState()
    }

    /// Forgets every customer, history and chain read from the database (they load again on
    /// use): after a failed write, and when the world is reset.
    func clearLoadedState() {
        customers = [:]
        appTransactions = [:]
        unwrittenCustomers = []
        unwrittenAppTransactions = []
        histories = [:]
        pendingHistory = [:]
        chains = [:]
        chainIndex = [:]
        chainsLoaded = []
        agenda.removeAll()
        residency.forgetLoaded()
    }

    /// Loads the world from the database when its memory was discarded: settings, families and
    /// scheduled chains. Writes started before the discard settle first, so what they made
    /// durable is read back. Throws `StorageUnavailable` while the database is away.
    func reloadIfNeeded() async throws {
        // One reload at a time: a second one clearing memory mid-load would drop what the first read.
        while needsReload {
            if let running = reloading {
                try await running.value
                continue
            }
            let task = Task { try await self.reloadOnce() }
            reloading = task
            defer { if reloading == task { reloading = nil } }
            try await task.value
        }
    }

    private func reloadOnce() async throws {
        while needsReload {
            await writesSettled()
            let started = generation
            clearMemory()
            if let text = try await env.database.worldConfig(id: id),
               let stored = try? PayloadCoding.decoder.decode(WorldSettings.self, from: Data(text.utf8)) {
                settings = stored
                savedSettings = stored
            }
            try await ensureFamiliesLoaded()
            try await loadAgenda()
            // Discarded again meanwhile (another write failed): load once more.
            guard generation == started else { continue }
            needsReload = false
            generation += 1
        }
    }

    /// Throws when the world's memory was discarded since `generation` was read: what the caller
    /// read before its suspension is gone, and its decision must not be made on what is left.
    func checkGeneration(_ seen: Int) throws {
        if seen != generation { throw WorldReloading() }
    }

    func writeStarted() { writesInFlight += 1 }

    func writeEnded() {
        writesInFlight -= 1
        if writesInFlight == 0 {
            let waiting = settleWaiters
            settleWaiters = []
            for waiter in waiting { waiter.resume() }
        }
    }

    /// Waits until no `commit` of this world is between its decision and its write's outcome.
    func writesSettled() async {
        while writesInFlight > 0 {
            await withCheckedContinuation { settleWaiters.append($0) }
        }
    }

    /// Runs a write that is not a batch (a delete, saved settings); when it fails, memory that
    /// was already changed for it is discarded.
    func durably(_ write: () async throws -> Void) async throws {
        let seen = generation
        do {
            try await write()
        } catch {
            if error is LeaseLost { env.ownership?.markLost(id, epoch: leaseEpoch) }
            if generation == seen { discardMemory() }
            throw error
        }
    }
}

/// The world's memory was discarded (a write failed) while a request was deciding; nothing of the
/// request was written. Answered 503 with `Retry-After`, like the database being away.
struct WorldReloading: Error, TemporarilyUnavailable, CustomStringConvertible {
    var retryAfterSeconds: Int { 1 }
    var description: String { "the world is reloading from the database after a failed write; try again" }
}
