/// Whether the store can take traffic: its database answers and holds the schema this build
/// expects. Liveness (`/healthz`) is only "the process serves"; this is `/readyz`.
public struct StoreReadiness: Sendable, Equatable {
    /// Whether the store can take traffic now.
    public var ready: Bool
    /// The schema version the database is at (nil when it cannot be read).
    public var schemaVersion: Int?
    /// The schema version this build needs.
    public var expectedSchemaVersion: Int
    /// Why it is (not) ready, in words, for the `/readyz` answer.
    public var detail: String
    /// Which database, without its password (`sqlite:PATH`, `postgres://user:***@host:port/db`).
    public var database: String
}

extension AppStore {
    /// Asks the database now; `/readyz` answers with the result.
    public func readiness() async -> StoreReadiness {
        let storage = await database.readiness()
        return StoreReadiness(
            ready: storage.ready, schemaVersion: storage.schemaVersion, expectedSchemaVersion: storage.expectedVersion,
            detail: storage.detail, database: database.url.description)
    }
}
