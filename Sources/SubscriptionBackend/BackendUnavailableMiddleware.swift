import Hummingbird
import StoreModel
import StoreShared

/// A request that meets the database away (a PostgreSQL server restarting, a network drop) is
/// answered 503 with `Retry-After` and the JSON API's `{"error", "message"}`, not a bare 500: the
/// backend reconnects by itself, so the client may simply try again. The cause, naming host, port
/// and database, goes to the log.
struct BackendUnavailableMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any TemporarilyUnavailable {
            context.logger.warning("database unavailable", metadata: ["error": "\(error)"])
            var response = BackendHTTPServer.error(503, "databaseUnavailable", "the backend's database is unavailable; retry shortly")
            response.headers[.retryAfter] = String(error.retryAfterSeconds)
            return response
        }
    }
}
