import StoreModel

/// The database cannot be reached right now (a PostgreSQL server restarting, a network drop).
/// Nothing was written by the failed call; the caller may try again once the database is back,
/// which the store notices by itself. The server answers 503 with `Retry-After`.
public struct StorageUnavailable: Error, CustomStringConvertible, TemporarilyUnavailable {
    public var description: String
    public var retryAfterSeconds: Int { 2 }
    package init(_ description: String) { self.description = description }
}
