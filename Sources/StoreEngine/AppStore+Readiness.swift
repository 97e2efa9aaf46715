/// Whether the store can take traffic: its database answers and holds the schema this build
/// expects. Liveness (`/healthz`) is only "the process serves"; this is `/readyz`.
public struct StoreReadiness: Sendable, Equatable {
    public var ready: Bool
    /// The schema version the database is at (nil when it cannot be read).
    public var schemaVersion: Int?
    public var expectedSchemaVersion: Int
    public var detail: String
    /// Which database, without its password (`sqlite:PATH`, `postgres://user:***@host:port/db`).
    public var database: String
}

extension AppStore {
    public func readiness() async -> StoreReadiness {
        let storage = await database.readiness()
        return StoreReadiness(
            ready: storage.ready, schemaVersion: storage.schemaVersion, expectedSchemaVersion: storage.expectedVersion,
            detail: storage.detail, database: database.url.description)
    }
}
