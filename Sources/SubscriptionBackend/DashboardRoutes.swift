import Foundation
import StoreShared
import Hummingbird
import NIOCore

/// The dashboard's routes: `/` (overview), `/customers` (lookup), `/customers/{appUserId}`, the
/// sign-in pages, and `GET /v1/admin/overview` (the overview's figures as JSON, behind the API's
/// bearer token). Pages only read; nothing here changes state but the sign-in cookie.
///
/// Access follows the store's admin rule: without `--api-token` the backend binds loopback only
/// (it refuses another `--host`), so the pages are open to this machine; with a token every
/// page needs it, as `Authorization: Bearer <token>` or, for a browser, signed in once on
/// `/login`, which sets an `HttpOnly`, `SameSite=Strict` cookie.
enum BackendDashboard {
    static let cookieName = "openstore_backend"

    static func register(router: Router<BasicRequestContext>, v1: RouterGroup<BasicRequestContext>, backend: SubscriptionBackend) {
        let token = backend.configuration.apiToken

        v1.get("/admin/overview") { request, _ in
            let query = DashboardForm(query: request.uri.query)
            let choice = Self.environment(query["environment"])
            guard choice.valid else {
                return BackendHTTPServer.error(400, "invalidEnvironment", "environment must be Production or Sandbox")
            }
            return try BackendHTTPServer.encoded(try await backend.overview(environment: choice.value))
        }

        router.get("/") { request, _ in
            try await guarded(request, token: token) {
                let query = DashboardForm(query: request.uri.query)
                let choice = Self.environment(query["environment"])
                guard choice.valid else {
                    return DashboardPages.message("Unknown environment", status: .badRequest, signOut: token != nil,
                                                  text: "The environment is Production, Sandbox, or empty for both.")
                }
                return DashboardPages.overview(try await backend.overview(environment: choice.value), signOut: token != nil)
            }
        }
        router.get("/customers") { request, _ in
            try await guarded(request, token: token) {
                let text = (DashboardForm(query: request.uri.query)["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                guard text.utf8.count <= 256 else {
                    return DashboardPages.message("Search too long", status: .badRequest, signOut: token != nil,
                                                  text: "Search for at most 256 bytes: an app user ID, a transaction ID or an appAccountToken.")
                }
                let matches = text.isEmpty
                    ? try await backend.database.recentCustomers(limit: 50)
                    : try await backend.database.searchCustomers(text, limit: 50)
                return DashboardPages.customers(search: text, matches: matches, total: try await backend.database.customerCount(),
                                                signOut: token != nil)
            }
        }
        router.get("/customers/:appUserId") { request, context in
            try await guarded(request, token: token) {
                let raw = context.parameters.get("appUserId") ?? ""
                guard let user = DashboardForm.decoded(raw), !user.isEmpty, user.utf8.count <= 256 else {
                    return DashboardPages.message("Bad customer", status: .badRequest, signOut: token != nil,
                                                  text: "The address does not name a customer (1–256 bytes, percent-encoded UTF-8).")
                }
                guard let info = try await backend.customerInfo(appUserId: user) else {
                    return DashboardPages.message("No such customer", status: .notFound, signOut: token != nil,
                                                  text: "The backend knows no customer \(user).")
                }
                let events = try await backend.events(appUserId: user, limit: 1000)
                let outbox = try await backend.database.outbox(appUserId: user)
                return DashboardPages.customer(info, events: events, outbox: outbox, signOut: token != nil)
            }
        }

        router.get("/login") { request, _ in
            let next = safeNext(DashboardForm(query: request.uri.query)["next"])
            return DashboardPages.login(next: next, error: nil, tokenRequired: token != nil)
        }
        router.post("/login") { request, _ in
            let body = (try? await request.body.collect(upTo: 16 * 1024)).map { String(buffer: $0) } ?? ""
            let form = DashboardForm(query: body)
            let next = safeNext(form["next"])
            guard let token else { return Response(status: .seeOther, headers: [.location: next]) }
            guard let given = form["token"], ConstantTime.equal(given, token) else {
                return DashboardPages.login(next: next, error: "That is not the backend's API token.", tokenRequired: true,
                                            status: .unauthorized)
            }
            return Response(status: .seeOther, headers: [.location: next, .setCookie: cookie(token)])
        }
        router.post("/logout") { _, _ in
            Response(status: .seeOther, headers: [.location: "/login", .setCookie: cookie(nil)])
        }
    }

    /// The environment asked for: `value` nil means both; `valid` is false for anything but
    /// Production, Sandbox or nothing.
    static func environment(_ value: String?) -> (valid: Bool, value: String?) {
        switch value ?? "" {
        case "": (true, nil)
        case "Production", "Sandbox": (true, value)
        default: (false, nil)
        }
    }

    /// Runs `page` when the visitor may see the dashboard, else sends them to sign in.
    static func guarded(_ request: Request, token: String?, _ page: () async throws -> Response) async throws -> Response {
        guard let token, !signedIn(request, token: token) else { return try await page() }
        let next = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        return Response(status: .seeOther, headers: [.location: "/login?next=" + DashboardForm.escape(next)])
    }

    static func signedIn(_ request: Request, token: String) -> Bool {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
           ConstantTime.equal(String(header.dropFirst(7)), token) {
            return true
        }
        guard let value = request.cookies[cookieName]?.value else { return false }
        return ConstantTime.equal(DashboardForm.unescape(Substring(value)), token)
    }

    static func cookie(_ token: String?) -> String {
        guard let token else { return "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" }
        return "\(cookieName)=\(DashboardForm.escape(token)); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Where to go after signing in: a path on this site only (never `//host` or a URL).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "/" }
        return next
    }

}

/// `application/x-www-form-urlencoded` pairs (a query string or a posted form): `+` is a space,
/// then percent-decoding; a pair that does not decode is dropped. The first value of a name wins.
struct DashboardForm {
    private var pairs: [(String, String)] = []

    init(query: String?) {
        for part in (query ?? "").split(separator: "&") {
            let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.unescape(kv[0]), value = kv.count > 1 ? Self.unescape(kv[1]) : ""
            pairs.append((name, value))
        }
    }

    subscript(name: String) -> String? { pairs.first { $0.0 == name }?.1 }

    static func unescape(_ text: Substring) -> String {
        decoded(String(text).replacingOccurrences(of: "+", with: " ")) ?? ""
    }

    /// Percent-decoding that refuses a bad escape or bytes that are not UTF-8 (nil).
    static func decoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next(), let low = utf8.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func escape(_ text: String) -> String { PercentEncoding.unreserved(text) }
}
