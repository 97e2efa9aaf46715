import Foundation
import StoreStorage

/// What a world looks like from outside: its name and clock.
public struct WorldInfo: Codable, Sendable, Equatable {
    /// The world's name.
    public var id: String
    /// When the world was created, in real time (ms).
    public var createdMs: Int64
    /// The world's own time now (ms), which its clock and time jumps move.
    public var nowMs: Int64
    /// The clock's rate as text: an Apple rate with its raw value, or a multiplier such as `720x`.
    public var rate: String
    /// World seconds per real second (1 for real time and for the renewal-based Apple rates).
    public var clockSpeed: Double
    /// The world's clock and switches, as stored.
    public var settings: WorldSettings
}

extension AppStore {
    /// Refuses a name no world can have (1–64 ASCII letters, digits, `-`, `_` or `.`), so a
    /// route that reads no world's data still answers such a name as malformed.
    public static func checkWorldName(_ id: String) throws(StoreError) {
        try WorldDirectory.checkName(id)
    }

    /// Creates an empty world whose clock starts at real time now, at `rate` (by default the
    /// store's), with the catalogs' simulated errors; fails if the name is taken.
    public func createWorld(_ id: String, rate: TimeRate? = nil) async throws -> WorldInfo {
        try await worlds.create(id, rate: rate).info()
    }

    /// Every world of the store. With many instances, the ones another instance serves are
    /// described from their stored settings (their clock as saved there).
    public func listWorlds() async -> [WorldInfo] {
        var out: [WorldInfo] = []
        for world in await worlds.all { out.append(await world.info()) }
        guard worlds.env.ownership != nil, let stored = try? await database.worlds() else { return out }
        let served = Set(out.map(\.id))
        let realNow = worlds.env.realNowMs()
        for row in stored where !served.contains(row.id) {
            guard let settings = try? PayloadCoding.decoder.decode(WorldSettings.self, from: Data(row.config.utf8)) else { continue }
            let rate = settings.clock.rate
            out.append(WorldInfo(id: row.id, createdMs: row.createdMs, nowMs: settings.clock.worldMs(atReal: realNow),
                                 rate: rate.description, clockSpeed: rate.clockSpeed, settings: settings))
        }
        return out.sorted { $0.createdMs == $1.createdMs ? $0.id < $1.id : $0.createdMs < $1.createdMs }
    }

    /// The worlds this instance serves: whose scheduler and notification deliveries run here.
    public func servedWorldIds() async -> [String] {
        await worlds.all.map(\.id)
    }

    /// The world's name, clock and settings now.
    public func worldInfo(_ id: String) async throws -> WorldInfo {
        try await loadedWorld(id).info()
    }

    /// Deletes a world and everything in it; the default world cannot be deleted, only reset.
    public func deleteWorld(_ id: String) async throws {
        try await worlds.delete(id)
        worlds.env.notificationURLs.invalidate(world: id)
    }

    /// `resetToDefaultState()` plus `clearTransactions()`: every purchase, customer and override
    /// of the world is gone; its clock keeps its time (it never runs backwards).
    public func resetWorld(_ id: String) async throws -> WorldInfo {
        let world = try await loadedWorld(id)
        try await world.reset()
        worlds.env.notificationURLs.invalidate(world: id)
        return await world.info()
    }

    /// Jumps the world's clock ahead; every event that falls due fires, in order, before this returns.
    /// - Parameter progress: called with the fraction done while a long jump catches up.
    public func advanceTime(_ id: String, byMs ms: Int64, progress: (@Sendable (Double) -> Void)? = nil) async throws -> WorldInfo {
        guard ms >= 0 else { throw StoreError.malformedRequest("time only moves forward") }
        let world = try await loadedWorld(id)
        try await world.advanceClock(byMs: ms, progress: progress)
        return await world.info()
    }

    /// Changes how fast the world's clock runs from now on; the time already passed stays.
    public func setTimeRate(_ id: String, rate: TimeRate) async throws -> WorldInfo {
        let world = try await loadedWorld(id)
        try await world.setRate(rate)
        return await world.info()
    }
}

extension World {
    func info() -> WorldInfo {
        WorldInfo(id: id, createdMs: createdMs, nowMs: nowMs(), rate: rate.description, clockSpeed: rate.clockSpeed, settings: settings)
    }

    /// Concurrent jumps queue: each starts where the previous one left the clock, so 100 jumps
    /// of a day move it 100 days (measured from its own start, an overlapping jump was lost).
    func advanceClock(byMs ms: Int64, progress: (@Sendable (Double) -> Void)?) async throws {
        let previous = lastJump
        let jump = Task {
            _ = await previous?.value
            try await self.jumpClock(byMs: ms, progress: progress)
        }
        lastJump = Task { _ = await jump.result }
        try await jump.value
    }

    private func jumpClock(byMs ms: Int64, progress: (@Sendable (Double) -> Void)?) async throws {
        let start = nowMs()
        // The clock is saved at its new time before the events up to it are applied: a crash in
        // between leaves them due, and start-up applies them. Saved after them (as it was), a
        // kill -9 mid-jump left renewals and their notifications dated in the world's future.
        settings.clock.advance(by: ms, atReal: env.realNowMs())
        try await saveSettings()
        // Catch up in steps so progress can be reported and memory stays flat on a long jump.
        let steps: Int64 = progress == nil ? 1 : 50
        for step in 1...steps {
            try await advance(to: start + ms * step / steps)
            progress?(Double(step) / Double(steps))
        }
        try await catchUp()
        schedulerWake.signal()
        env.outbox.signal()  // retries the jump passed are due now
    }

    func setRate(_ rate: TimeRate) async throws {
        try await catchUp()
        settings.clock.setRate(rate, atReal: env.realNowMs())
        try await saveSettings()
        schedulerWake.signal()  // the next event falls due at another real time
        env.outbox.signal()
    }

    func reset() async throws {
        try await catchUp()
        settings.reset()
        settings.simulatedErrors = CatalogSimulatedErrors.defaults(for: Array(env.apps.values))  // back to the file's `_storeKitErrors`
        clearLoadedState()
        sideTables.forget()
        try await durably { try await env.database.deleteWorldData(id, keepWorld: true, lease: leaseEpoch) }
        try await saveSettings()
    }
}
