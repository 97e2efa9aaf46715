
/// The database cannot be reached right now (a PostgreSQL server restarting, a network drop).
/// Nothing was written by the failed call; the caller may try again once the database is back,
/// which the store notices by itself. The server answers 503 with `Retry-After`.
public struct StorageUnavailable: Error, CustomStringConvertible, TemporarilyUnavailable {
    /// What failed, for the request log; the client gets a generic 503 message instead.
    public var description: String
    /// Always 2 s for `Retry-After`: the store reconnects on its next call, so a short wait is enough.
    public var retryAfterSeconds: Int { 2 }
    package init(_ description: String) { self.description = description }
}
