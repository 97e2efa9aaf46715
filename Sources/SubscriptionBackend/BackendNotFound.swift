import Foundation
import Hummingbird

/// A request no route takes (an unknown path, or a path value that decodes into more segments,
/// such as `..%2F..`) gets the JSON API's clear refusal, `{"error": "notFound", "message": …}`,
/// instead of an empty 404.
struct BackendNotFoundMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return BackendHTTPServer.error(404, "notFound", "no such route: \(request.method) \(request.uri.path.prefix(200))")
        }
    }
}
