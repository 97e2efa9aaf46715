import Foundation
import StoreShared
import Hummingbird

/// Who may drive the Transaction Manager (issue 3 §5): "the admin API answers on loopback only,
/// unless it is started with a token". With a token, every admin request must carry
/// `Authorization: Bearer <token>` wherever it comes from; without one, only loopback peers get in.
struct AdminAccess: RouterMiddleware {
    typealias Context = StoreRequestContext

    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let token {
            guard let presented = Self.bearer(request.headers[.authorization]), ConstantTime.equal(presented, token) else {
                var response = JSONResponse.error(
                    status: 401, code: "unauthorized",
                    message: "the admin API needs the header Authorization: Bearer <token given to openstore serve --admin-token>")
                response.headers[.wwwAuthenticate] = "Bearer realm=\"openstore-admin\""
                return response
            }
        } else if !PeerAddress.isLoopback(context.peer) {
            return JSONResponse.error(
                status: 403, code: "forbidden",
                message: "the admin API answers on loopback only; start the store with --admin-token to reach it from elsewhere")
        }
        return try await next(request, context)
    }

    static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

}
