import Foundation
import StoreShared
import Hummingbird

/// Who may use the dashboard: the admin API's rule (`AdminAccess`). Without `--admin-token` it
/// answers loopback peers only; with one, every visitor signs in once with the token on
/// `/manage/login`, which sets an `HttpOnly`, `SameSite=Strict` cookie scoped to `/manage`
/// (a browser cannot send an `Authorization` header from a link or a form).
struct ManageAccess: RouterMiddleware {
    typealias Context = StoreRequestContext
    static let cookieName = "openstore_admin"

    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let query = ManageQuery(query: request.uri.query)
        if let token {
            guard Self.signedIn(request, token: token) else {
                if request.method == .get {
                    return HTMLResponse.seeOther("/manage/login?" + FormEncoding.query([("next", request.uri.description)]))
                }
                return ManageDocument.page("Sign in required", query, section: nil, status: .unauthorized) { html in
                    html.element("h1", text: "Sign in required")
                    html.element("p", text: "This store was started with --admin-token: sign in with the token first.")
                    html.element("a", [("href", "/manage/login")], text: "Sign in")
                }
            }
        } else if !PeerAddress.isLoopback(context.peer) {
            return ManageDocument.page("Forbidden", query, section: nil, status: .forbidden) { html in
                html.element("h1", text: "Forbidden")
                html.element("p", text: "The Transaction Manager answers on loopback only. Start the store with --admin-token to use it from other machines.")
            }
        }
        return try await next(request, context)
    }

    static func signedIn(_ request: Request, token: String) -> Bool {
        guard let value = request.cookies[cookieName]?.value else { return false }
        return ConstantTime.equal(FormEncoding.unescape(Substring(value)), token)
    }

    static func cookie(_ token: String?) -> String {
        guard let token else { return "\(cookieName)=; Path=/manage; HttpOnly; SameSite=Strict; Max-Age=0" }
        return "\(cookieName)=\(FormEncoding.escape(token)); Path=/manage; HttpOnly; SameSite=Strict"
    }
}
