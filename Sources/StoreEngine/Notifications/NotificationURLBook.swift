import StoreStorage
import Synchronization

/// The apps' notification URLs per world and environment, kept as world documents (kind
/// `notification_url`, key `bundleId\nenvironment`) and cached here so that every commit with
/// App Store events can ask "is anyone listening?" without a database read.
/// Keyed by database path: one process may open several stores (tests), each with its own worlds.
/// Entries live one second, so a world reset or deletion (which removes the documents) is seen soon
/// without a hook into those paths; changes made here invalidate at once.
final class NotificationURLBook: Sendable {
    static let shared = NotificationURLBook()
    static let kind = "notification_url"
    static let lifetime: ContinuousClock.Duration = .seconds(1)

    private let cache = Mutex<[String: (urls: [String: String], loaded: ContinuousClock.Instant)]>([:])

    static func key(bundleId: String, environment: String) -> String { "\(bundleId)\n\(environment)" }

    func url(database: StoreDatabase, world: String, bundleId: String, environment: String) async throws -> String? {
        let scope = database.path + "\u{0}" + world
        let key = Self.key(bundleId: bundleId, environment: environment)
        let now = ContinuousClock.now
        if let known = cache.withLock({ $0[scope] }), now - known.loaded < Self.lifetime { return known.urls[key] }
        var loaded: [String: String] = [:]
        for record in try await database.worldRecords(world: world, kind: Self.kind) where !record.value.isEmpty {
            loaded[record.key] = record.value
        }
        cache.withLock { $0[scope] = (loaded, now) }
        return loaded[key]
    }

    /// Forgets a world's URLs (after a change, a reset or a deletion); the next lookup reloads.
    func invalidate(database: StoreDatabase, world: String) {
        _ = cache.withLock { $0.removeValue(forKey: database.path + "\u{0}" + world) }
    }
}
