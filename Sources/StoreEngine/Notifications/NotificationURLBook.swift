import StoreStorage
import Synchronization

/// The apps' notification URLs per world and environment, kept as world documents (kind
/// `notification_url`, key `bundleId\nenvironment`) and cached here so that every commit with
/// App Store events can ask "is anyone listening?" without a database read, and without leaving
/// the world actor: `World.commit` must not suspend more than it has to, because a reader that
/// runs meanwhile reads the database before the batch is in it.
/// One book per store (`WorldEnvironment`), nothing process-wide: two stores in one process never
/// see each other's URLs. Loaded once per world; `AppStore.setNotificationURL` invalidates it.
final class NotificationURLBook: Sendable {
    static let kind = "notification_url"

    private let cache = Mutex<[String: [String: String]]>([:])

    static func key(bundleId: String, environment: String) -> String { "\(bundleId)\n\(environment)" }

    /// The world's URLs if loaded, synchronously (no suspension on the caller's actor).
    func cached(world: String) -> [String: String]? {
        cache.withLock { $0[world] }
    }

    func urls(database: StoreDatabase, world: String) async throws -> [String: String] {
        if let known = cached(world: world) { return known }
        var loaded: [String: String] = [:]
        for record in try await database.worldRecords(world: world, kind: Self.kind) where !record.value.isEmpty {
            loaded[record.key] = record.value
        }
        return cache.withLock { cache in
            if let known = cache[world] { return known }
            cache[world] = loaded
            return loaded
        }
    }

    func url(database: StoreDatabase, world: String, bundleId: String, environment: String) async throws -> String? {
        try await urls(database: database, world: world)[Self.key(bundleId: bundleId, environment: environment)]
    }

    /// Forgets a world's URLs (after a change); the next lookup reloads.
    func invalidate(world: String) {
        _ = cache.withLock { $0.removeValue(forKey: world) }
    }
}
