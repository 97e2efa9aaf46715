import Foundation
import StoreStorage
import Synchronization

/// All worlds of the store. The `default` world always exists; tests create their own so that
/// parallel runs never see each other.
actor WorldDirectory {
    let env: WorldEnvironment
    let defaultRate: TimeRate
    let runScheduler: Bool
    /// The worlds this instance serves (with many instances: the ones it holds leases on).
    var worlds: [String: World] = [:] {
        didSet { index.withLock { $0 = worlds } }
    }
    /// The same worlds, readable without entering this actor: a request finds its world without
    /// waiting behind another world's creation (one actor entry fewer on every request).
    private nonisolated let index = Mutex<[String: World]>([:])
    var loading: [String: Task<World, any Error>] = [:]
    /// Worlds being deleted: not taken over again (with many instances) nor created anew until
    /// their data is gone, or a request during the delete would bring the world back.
    var deleting: Set<String> = []
    /// Worlds being created here: their lease is held before they are in `worlds`, and the
    /// heartbeat must not load them a second time meanwhile (a second `World` with a newer epoch
    /// fenced the first one's writes: "owned by another instance", with one instance).
    var creating: Set<String> = []
    /// With many instances: the heartbeat that renews leases and claims orphaned worlds.
    var heartbeat: Task<Void, Never>?

    init(env: WorldEnvironment, defaultRate: TimeRate, runScheduler: Bool) {
        self.env = env
        self.defaultRate = defaultRate
        self.runScheduler = runScheduler
    }

    /// Restores every stored world and makes sure `default` exists.
    func load() async throws {
        if env.ownership != nil { return try await loadLeased() }
        var sawDefault = false
        for stored in try await env.database.worlds() {
            guard let settings = try? PayloadCoding.decoder.decode(WorldSettings.self, from: Data(stored.config.utf8)) else { continue }
            let world = World(id: stored.id, env: env, settings: settings, createdMs: stored.createdMs)
            await world.discardMemory()
            try await world.reloadIfNeeded()
            if runScheduler { await world.startDriver() }
            worlds[stored.id] = world
            if stored.id == AppStore.defaultWorld { sawDefault = true }
        }
        if !sawDefault { _ = try await create(AppStore.defaultWorld, rate: nil) }
    }

    func world(_ id: String) async throws -> World {
        if env.ownership != nil { return try await leasedWorld(id) }
        if let world = worlds[id] { return world }
        throw StoreError.worldNotFound(id)
    }

    /// The world named `id` if it exists now, without entering the actor.
    nonisolated func existingWorld(_ id: String) -> World? {
        index.withLock { $0[id] }
    }

    var all: [World] { worlds.values.sorted { $0.createdMs == $1.createdMs ? $0.id < $1.id : $0.createdMs < $1.createdMs } }

    func create(_ id: String, rate: TimeRate?) async throws -> World {
        try Self.checkName(id)
        guard worlds[id] == nil else { throw StoreError.invalidAction("world \(id) already exists") }
        guard !deleting.contains(id) else { throw StoreError.invalidAction("world \(id) is being deleted; create it again once that is done") }
        guard creating.insert(id).inserted else { throw StoreError.invalidAction("world \(id) already exists") }
        defer { creating.remove(id) }
        let lease = try await leaseForNewWorld(id)
        let now = env.realNowMs()
        var settings = WorldSettings(clock: .starting(at: now, rate: rate ?? defaultRate))
        settings.simulatedErrors = CatalogSimulatedErrors.defaults(for: Array(env.apps.values))  // `_storeKitErrors`, as Xcode opens the file
        let world = World(id: id, env: env, settings: settings, createdMs: now)
        await world.holdLease(lease)
        try await world.saveSettings()
        if runScheduler { await world.startDriver() }
        worlds[id] = world
        return world
    }

    func delete(_ id: String) async throws {
        guard id != AppStore.defaultWorld else { throw StoreError.invalidAction("the default world cannot be deleted; reset it instead") }
        if env.ownership != nil { _ = try await world(id) }  // taken over here, or forwarded to its owner
        guard !deleting.contains(id), let world = worlds.removeValue(forKey: id) else { throw StoreError.worldNotFound(id) }
        deleting.insert(id)
        defer { deleting.remove(id) }
        await world.stopDriver()
        try await env.database.deleteWorldData(id, keepWorld: false, lease: world.leaseEpoch)
        if let ownership = env.ownership {
            env.database.leaseBook.drop(id)
            try? await env.database.releaseLeases(owner: ownership.id, worlds: [id])
        }
    }

    func stopAll() async {
        heartbeat?.cancel()
        heartbeat = nil
        for world in worlds.values { await world.stopDriver() }
        await handBack()
    }

    /// A world's name: 1–64 ASCII letters, digits, `-`, `_` or `.` (openapi.json's `world` pattern).
    static func checkName(_ id: String) throws(StoreError) {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        guard !id.isEmpty, id.unicodeScalars.count <= 64, id.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
            throw .malformedRequest("a world name is 1–64 characters of A–Z, a–z, 0–9, '-', '_' or '.'")
        }
    }
}
