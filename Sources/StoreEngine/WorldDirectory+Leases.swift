import Foundation
import StoreStorage
import StoreShared

/// Many instances on one PostgreSQL (docs/deploy.md): each world is served by the one instance
/// holding its lease. An instance takes a world when a request for it arrives and nobody holds it,
/// or when its heartbeat finds it orphaned (its owner died or handed it back) and this instance
/// holds fewer than its share; it gives a world up when the lease was taken over (its heartbeat
/// or a fenced write says so) and hands every world back when it stops.
extension WorldDirectory {
    private var ownership: WorldOwnership { env.ownership! }

    /// Start-up with leases: makes sure `default` exists, then claims this instance's share of
    /// the worlds nobody holds, and keeps the leases alive from then on.
    func loadLeased() async throws {
        try await ownership.takeBlock(env.identifiers)
        // Worlds this instance held before a restart (its identity is kept in its data folder): taken
        // back at once, so their scheduler and deliveries resume without waiting for a request.
        let held = try await env.database.renewLeases(owner: ownership.id, address: ownership.address, ttlMs: ownership.settings.leaseMs)
        for id in held.keys.sorted() { _ = try? await leasedWorld(id) }
        if try await env.database.worldConfig(id: AppStore.defaultWorld) == nil {
            do {
                _ = try await create(AppStore.defaultWorld, rate: nil)
            } catch let error as StoreError {
                // Another instance created it at the same moment: it is there now.
                guard case .invalidAction = error else { throw error }
            } catch is WorldElsewhere {}
        }
        try await claimOrphans()
        startHeartbeat()
    }

    /// The world if this instance holds it, or takes it over when nobody does; otherwise
    /// `WorldElsewhere` with its owner's address.
    func leasedWorld(_ id: String) async throws -> World {
        await giveUpLost()
        if let world = worlds[id] { return world }
        // Its lease and row still exist while its data goes: taking it over now would bring it back.
        // One being created here is not there yet.
        guard !deleting.contains(id), !creating.contains(id) else { throw StoreError.worldNotFound(id) }
        if let pending = loading[id] { return try await pending.value }
        let task = Task { try await self.takeOver(id) }
        loading[id] = task
        defer { loading[id] = nil }
        return try await task.value
    }

    private func takeOver(_ id: String) async throws -> World {
        guard let stored = try await env.database.storedWorld(id: id),
              let settings = try? PayloadCoding.decoder.decode(WorldSettings.self, from: Data(stored.config.utf8)) else {
            throw StoreError.worldNotFound(id)
        }
        let lease = try await env.database.acquireLease(
            world: id, owner: ownership.id, address: ownership.address, ttlMs: ownership.settings.leaseMs)
        guard lease.owner == ownership.id else { throw WorldElsewhere(world: id, address: lease.address) }
        do {
            // Change numbers above all its last owner used (revision tokens stay in order).
            try await ownership.takeBlock(env.identifiers)
            let world = World(id: id, env: env, settings: settings, createdMs: stored.createdMs)
            await world.holdLease(lease.epoch)
            await world.discardMemory()
            try await world.reloadIfNeeded()
            // Every change of the world up to here is durable: a Transaction.updates stream opened
            // now resumes from the database below the new block, the last owner's changes included.
            env.feed.open(world: id, releasedUpTo: env.identifiers.current.seq)
            if runScheduler { await world.startDriver() }
            worlds[id] = world
            env.outbox.signal()  // its last owner's undelivered notifications are due here now
            return world
        } catch {
            // Not served here after all: handed back, so the next request or heartbeat takes it.
            env.database.leaseBook.drop(id)
            try? await env.database.releaseLeases(owner: ownership.id, worlds: [id])
            throw error
        }
    }

    /// The lease a world about to be created is written under (nil without many instances).
    func leaseForNewWorld(_ id: String) async throws -> Int64? {
        guard let ownership = env.ownership else { return nil }
        let lease = try await env.database.acquireLease(
            world: id, owner: ownership.id, address: ownership.address, ttlMs: ownership.settings.leaseMs)
        guard lease.owner == ownership.id else { throw StoreError.invalidAction("world \(id) already exists") }
        guard try await env.database.worldConfig(id: id) == nil else {
            // It exists, made elsewhere: give the lease back so its next request takes it properly.
            try? await env.database.releaseLeases(owner: ownership.id, worlds: [id])
            throw StoreError.invalidAction("world \(id) already exists")
        }
        return lease.epoch
    }

    /// Stops serving a world another instance took over. Its memory goes; requests holding it
    /// fail on their next write (the stale epoch stays with it, so it can never write again).
    func giveUp(_ id: String) async {
        guard let world = worlds.removeValue(forKey: id) else { return }
        ownership.clearLost(id)
        env.database.leaseBook.drop(id)
        await world.stopDriver()
        await world.discardMemory()
        env.feed.close(world: id)
    }

    /// Hands every world back at once (SIGTERM): the next request anywhere takes them over.
    func handBack() async {
        guard let ownership = env.ownership else { return }
        for world in worlds.values { await world.writesSettled() }
        for id in worlds.keys { env.database.leaseBook.drop(id) }
        try? await env.database.releaseLeases(owner: ownership.id)
        worlds = [:]
    }

    private func startHeartbeat() {
        let every = max(ownership.settings.leaseMs / 3, 100)
        // On a thread of its own: renewing on time must not depend on how busy the pool is.
        heartbeat = Task(executorPreference: ThreadExecutor.heartbeat) { [weak self] in
            // Its statements' helper tasks run on that thread too (`PostgresCloseWatch`).
            await ThreadExecutor.$preferred.withValue(ThreadExecutor.heartbeat) { [weak self] in
                var lastRenewal = ContinuousClock.now
                while !Task.isCancelled {
                    await ThreadExecutor.heartbeat.sleep(for: .milliseconds(every))
                    guard let self, !Task.isCancelled else { return }
                    do {
                        try await self.beat()
                        lastRenewal = .now
                    } catch {
                        // The database is away: past the lease, another instance may own them now.
                        if ContinuousClock.now - lastRenewal > .milliseconds(await self.ownership.settings.leaseMs) {
                            await self.giveUpAll()
                        }
                    }
                }
            }
        }
    }

    private func beat() async throws {
        // Judged against the worlds held before the renewal was asked: one taken over meanwhile is
        // not in its answer yet, and must not be given up for that.
        let before = worlds
        let held = try await env.database.renewLeases(owner: ownership.id, address: ownership.address, ttlMs: ownership.settings.leaseMs)
        await giveUpLost()
        for (id, world) in before {
            let epoch = world.leaseEpoch
            if held[id] != epoch, worlds[id] === world { await giveUp(id) }
        }
        // A lease held with nothing in memory (a take-over that failed after the lease was
        // granted): loaded now, so its scheduler and deliveries run.
        for id in held.keys where worlds[id] == nil && loading[id] == nil && !creating.contains(id) && !deleting.contains(id) {
            _ = try? await leasedWorld(id)
        }
        try await ownership.refillIfNeeded(env.identifiers)
        try await claimOrphans(rebalance: true)
    }

    /// Gives up the worlds a write found taken over, unless this instance took them again since.
    private func giveUpLost() async {
        for (id, epoch) in ownership.takeLost() {
            guard let world = worlds[id] else { continue }
            if let current = world.leaseEpoch, current > epoch { continue }
            await giveUp(id)
        }
    }

    private func giveUpAll() async {
        for id in Array(worlds.keys) { await giveUp(id) }
    }

    /// Takes worlds nobody holds, up to this instance's share of all worlds among the live
    /// instances, and hands back what it holds beyond that share when nothing is orphaned (an
    /// instance joined): a dead instance's worlds move within a lease time, and worlds spread.
    func claimOrphans(rebalance: Bool = false) async throws {
        let orphans = try await env.database.unleasedWorlds()
        let live = max(try await env.database.liveInstanceCount(withinMs: ownership.settings.leaseMs), 1)
        let total = try await env.database.worldCount()
        let share = (total + live - 1) / live
        for id in orphans where worlds.count < share {
            _ = try? await leasedWorld(id)
        }
        // One world of slack, so two instances with an odd count do not pass one back and forth.
        guard rebalance, orphans.isEmpty, worlds.count > share + 1 else { return }
        // The newest first: long-lived worlds (default) stay where their clients are.
        let excess = all.reversed().prefix(worlds.count - share - 1).map(\.id)
        for id in excess {
            guard let world = worlds[id] else { continue }
            await world.writesSettled()
            await giveUp(id)
        }
        try await env.database.releaseLeases(owner: ownership.id, worlds: excess)
    }
}

extension World {
    /// The epoch this world's writes carry; the database's lease book fences every other write of it.
    func holdLease(_ epoch: Int64?) {
        setLeaseEpoch(epoch)
        if let epoch { env.database.leaseBook.hold(id, epoch: epoch) }
    }
}
