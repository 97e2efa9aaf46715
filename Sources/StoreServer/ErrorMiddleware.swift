import Hummingbird
import Logging
import StoreEngine
import StoreModel
import StoreShared

/// Turns every failure into a JSON answer. The store's refusals answer for themselves
/// (`HTTPResponseError`); what is left here is what no error type can say alone: the database or
/// world away for a moment (503), a client gone (499), and a genuine fault of the store (500,
/// logged once, by the request log).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = StoreRequestContext
    /// The routes' methods by path, for 405 with `Allow`; nil answers every unknown route 404.
    var allowed: AllowedMethods? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            // Hummingbird's own (no route, wrong method): the store's JSON body too. A path that
            // exists but not for this method is 405 with the methods it serves.
            if error.status == .notFound, let methods = allowed?.refusal(of: request.method.rawValue, at: request.uri.path) {
                var response = JSONResponse.error(
                    status: 405, code: "methodNotAllowed",
                    message: "\(request.method.rawValue) is not served at this path; it serves \(methods.joined(separator: ", "))")
                response.headers[.allow] = methods.joined(separator: ", ")
                return response
            }
            let status = Int(error.status.code)
            let code = status == 404 ? "notFound" : status == 405 ? "methodNotAllowed" : "httpError"
            return JSONResponse.error(status: status, code: code, message: error.body ?? error.status.reasonPhrase)
        } catch let error as any HTTPResponseError {
            // The engine's refusals and the server's own (`EngineErrorStatus.swift`, `RequestError`).
            return try error.response(from: request, context: context)
        } catch let error as any TemporarilyUnavailable {
            // The database is away for a moment (docs/storage.md), or the world is served by
            // another instance (forwarded there by WorldForwardingMiddleware): nothing was written.
            // Logged once, by the request log, with the request's context and this fault.
            context.noteElsewhere(error)
            context.recordFailure(error)
            var response = JSONResponse.error(status: 503, code: "serviceUnavailable", message: "the store's database is unavailable; retry shortly")
            response.headers[.retryAfter] = String(error.retryAfterSeconds)
            return response
        } catch is CancellationError {
            return Self.clientClosedRequest
        } catch {
            context.recordFailure(error)
            return JSONResponse.error(status: 500, code: "internalError", message: "the store failed to handle this request")
        }
    }

    /// The request's task was cancelled: its client went away (a closed `Transaction.updates`
    /// stream) or the server is stopping. No fault of the store, and nobody reads the answer:
    /// 499, as nginx records a client that closed its request, logged at `info`, not as a 500.
    static var clientClosedRequest: Response {
        Response(status: .init(code: 499, reasonPhrase: "Client Closed Request"))
    }
}
