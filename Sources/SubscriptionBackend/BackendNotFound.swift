import Foundation
import Hummingbird
import StoreShared

/// A request no route takes (an unknown path, or a path value that decodes into more segments,
/// such as `..%2F..`) gets the JSON API's clear refusal, `{"error": "notFound", "message": …}`,
/// instead of an empty 404. A path that exists but not for this method gets 405 with `Allow`.
struct BackendNotFoundMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    /// The routes' methods by path (loaded once the router is complete).
    var allowed: AllowedMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if let methods = allowed.refusal(of: request.method.rawValue, at: request.uri.path) {
                var response = BackendHTTPServer.error(405, "methodNotAllowed", "\(request.method) is not served at this path; it serves \(methods.joined(separator: ", "))")
                response.headers[.allow] = methods.joined(separator: ", ")
                return response
            }
            return BackendHTTPServer.error(404, "notFound", "no such route: \(request.method) \(request.uri.path.prefix(200))")
        }
    }
}
