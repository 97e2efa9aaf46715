/// A failure that passes: the service behind the request (the store's database) is away for a
/// moment. Thrown by storage, recognised by the HTTP server, which answers 503 with
/// `Retry-After`, without either knowing the other's types.
public protocol TemporarilyUnavailable: Error {
    /// Seconds a client should wait before trying again.
    var retryAfterSeconds: Int { get }
}
