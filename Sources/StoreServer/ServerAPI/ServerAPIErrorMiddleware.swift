import Foundation
import Hummingbird
import NIOCore
import StoreEngine
import StoreModel
import StoreShared

/// Apple's answers: JSON with `Content-Type: application/json` exactly (Apple's Python client
/// drops the error code otherwise), and plain-text 401s like Apple's.
enum AppleJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func ok(_ value: some Encodable) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    static func empty(_ status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentLength: "0"])
    }

    static func error(_ error: ServerAPIError) -> Response {
        struct Body: Encodable { var errorCode: Int64; var errorMessage: String }
        let data = (try? encoder.encode(Body(errorCode: error.code, errorMessage: error.message))) ?? Data()
        var headers: HTTPFields = [.contentType: "application/json"]
        // Apple's 429 says when to come back: a UNIX time in milliseconds.
        if let retryAt = error.retryAtMs { headers[.retryAfter] = String(retryAt) }
        return Response(status: HTTPResponse.Status(code: error.httpStatus), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func unauthenticated() -> Response {
        let text = "Unauthenticated\n\nRequest ID: \(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(26))\n"
        return Response(
            status: .unauthorized, headers: [.contentType: "text/plain"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Turns every failure under `/inApps` into Apple's answer. Only a genuine fault of the store
/// (its database failing) is a 500 (`GENERAL_INTERNAL`), and it is logged.
struct ServerAPIErrorMiddleware: RouterMiddleware {
    typealias Context = StoreRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServerAPIError {
            return try error.response(from: request, context: context)
        } catch let failure as ServerAPIAuthFailure {
            context.logger.debug("Server API token refused: \(failure)")
            return AppleJSON.unauthenticated()
        } catch let error as StoreError {
            switch error {
            case .transactionNotFound, .customerNotFound: return AppleJSON.error(.transactionIdNotFound)
            case .appNotFound: return AppleJSON.error(.appNotFound)
            // The key's world is gone: its credentials no longer open anything.
            case .worldNotFound: return AppleJSON.unauthenticated()
            default: return AppleJSON.error(ServerAPIError(code: ServerAPIError.generalBadRequest.code, message: error.message))
            }
        } catch let error as any TemporarilyUnavailable {
            // The store's database is away for a moment: Apple's "unknown error, try again"
            // (GeneralInternalRetryableError), as 503 with Retry-After like the store's other routes.
            // A world served by another instance is forwarded there by WorldForwardingMiddleware.
            context.noteElsewhere(error)
            context.recordFailure(error)
            var response = AppleJSON.error(ServerAPIError(code: 5_000_001, message: "An unknown error occurred. Please try again."))
            response.status = .serviceUnavailable
            response.headers[.retryAfter] = String(error.retryAfterSeconds)
            return response
        } catch is AppleBodyTooLarge {
            var response = AppleJSON.error(ServerAPIError(code: 4_000_000, message: "Invalid request. The body is too large."))
            response.headers[.connection] = "close"
            return response
        } catch let error as HTTPError where error.status.code < 500 {
            return AppleJSON.error(ServerAPIError(code: 4_000_000, message: error.body ?? error.status.reasonPhrase))
        } catch is CancellationError {
            return ErrorMiddleware.clientClosedRequest
        } catch {
            context.recordFailure(error)
            return AppleJSON.error(.generalInternal)
        }
    }
}
