import Foundation
import StoreShared
import Hummingbird
import NIOCore

/// The dashboard's routes: `/` (overview), `/customers` (lookup), `/customers/{appUserId}`, the
/// sign-in pages, and `GET /v1/admin/overview` (the overview's figures as JSON, behind the API's
/// bearer token). Pages only read; nothing here changes state but the sign-in cookie and the
/// test event the overview's button sends (a same-origin form, as the store's pages guard theirs).
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
            let query = FormEncoding.fields(request.uri.query)
            let choice = Self.environment(query["environment"])
            guard choice.valid else {
                return BackendHTTPServer.error(400, "invalidEnvironment", "environment must be Production or Sandbox")
            }
            return try BackendHTTPServer.encoded(try await backend.overview(environment: choice.value))
        }

        router.get("/") { request, _ in
            try await guarded(request, token: token) {
                let query = FormEncoding.fields(request.uri.query)
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
                // The limit counts the search as sent (openapi.json's maxLength counts Unicode
                // scalars), before the spaces around it are dropped.
                let sent = FormEncoding.fields(request.uri.query)["q"] ?? ""
                guard sent.unicodeScalars.count <= 256 else {
                    return DashboardPages.message("Search too long", status: .badRequest, signOut: token != nil,
                                                  text: "Search for at most 256 characters: an app user ID, a transaction ID or an appAccountToken.")
                }
                let text = sent.trimmingCharacters(in: .whitespacesAndNewlines)
                let matches = text.isEmpty
                    ? try await backend.database.recentCustomers(limit: 50)
                    : try await backend.database.searchCustomers(text, limit: 50)
                return DashboardPages.customers(search: text, matches: matches, total: try await backend.database.customerCount(),
                                                signOut: token != nil)
            }
        }
        router.get("/customers/:appUserId") { request, context in
            try await guarded(request, token: token) {
                guard let user = BackendHTTPServer.appUserId(context) else {
                    return DashboardPages.message("Bad customer", status: .badRequest, signOut: token != nil,
                                                  text: "The address does not name a customer (1–256 characters of percent-encoded UTF-8, no control characters).")
                }
                guard let info = try await backend.customerInfo(appUserId: user, seenByApp: false) else {
                    return DashboardPages.message("No such customer", status: .notFound, signOut: token != nil,
                                                  text: "The backend knows no customer \(user).")
                }
                let events = try await backend.events(appUserId: user, limit: 1000)
                let outbox = try await backend.database.outbox(appUserId: user)
                return DashboardPages.customer(info, events: events, outbox: outbox, signOut: token != nil)
            }
        }

        router.get("/charts") { request, _ in
            try await guarded(request, token: token) { DashboardPages.chartList(signOut: token != nil) }
        }
        router.get("/charts/:name") { request, context in
            try await guarded(request, token: token) {
                let name = context.parameters.get("name") ?? ""
                do {
                    let chart = try await backend.chart(try ChartQuery.parse(name: name, fields: FormEncoding.decode(request.uri.query)))
                    return DashboardPages.chart(chart, query: request.uri.query, signOut: token != nil)
                } catch ChartQueryError.unknownChart {
                    return DashboardPages.message("No such chart", status: .notFound, signOut: token != nil,
                                                  text: "The charts are listed on /charts.")
                } catch ChartQueryError.invalid(let message) {
                    return DashboardPages.chartRefused(name, message: message, sent: FormEncoding.fields(request.uri.query),
                                                       status: .badRequest, signOut: token != nil)
                } catch ChartQueryError.unprocessable(let message) {
                    return DashboardPages.chartRefused(name, message: message, sent: FormEncoding.fields(request.uri.query),
                                                       status: .unprocessableContent, signOut: token != nil)
                }
            }
        }
        router.get("/charts/:name/csv") { request, context in
            try await guarded(request, token: token) {
                try await BackendChartRoutes.answer(backend, name: context.parameters.get("name") ?? "", query: request.uri.query, forceCSV: true)
            }
        }
        router.get("/paywalls") { request, _ in
            try await guarded(request, token: token) {
                var apps: [DashboardPages.AppPaywalls] = []
                for app in backend.configuration.apps {
                    let (current, offerings) = try await backend.database.offerings(bundleId: app.bundleId)
                    var reports: [ExperimentReport] = []
                    for experiment in try await backend.database.experiments(bundleId: app.bundleId) {
                        if let report = try await backend.experimentReport(id: experiment.id) { reports.append(report) }
                    }
                    apps.append(.init(bundleId: app.bundleId, current: current, offerings: offerings, reports: reports))
                }
                return DashboardPages.paywalls(apps, signOut: token != nil)
            }
        }
        router.post("/webhooks/test") { request, _ in
            try await guarded(request, token: token) {
                guard SameOriginGuard.allows(request) else {
                    return DashboardPages.message("Refused", status: .forbidden, signOut: token != nil,
                                                  text: "The form was posted from another site.")
                }
                let event = try await backend.sendTestEvent(bundleId: nil)
                let count = backend.configuration.webhooks.count
                return DashboardPages.message("Test event sent", status: .ok, signOut: token != nil,
                                              text: count == 0 ? "No webhook is configured: the TEST event \(event.id) was recorded only."
                                                  : "The TEST event \(event.id) is on its way to \(count) webhook\(count == 1 ? "" : "s"); the delivery log (GET /v1/admin/deliveries) shows each answer.")
            }
        }
        router.get("/login") { request, _ in
            let next = safeNext(FormEncoding.fields(request.uri.query)["next"])
            return DashboardPages.login(next: next, error: nil, tokenRequired: token != nil)
        }
        router.post("/login") { request, _ in
            let body = (try? await request.body.collect(upTo: 16 * 1024)).map { String(buffer: $0) } ?? ""
            let form = FormEncoding.fields(body)
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
        return Response(status: .seeOther, headers: [.location: "/login?next=" + FormEncoding.escape(next)])
    }

    static func signedIn(_ request: Request, token: String) -> Bool {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer "),
           ConstantTime.equal(String(header.dropFirst(7)), token) {
            return true
        }
        guard let value = request.cookies[cookieName]?.value else { return false }
        return ConstantTime.equal(FormEncoding.unescape(Substring(value)), token)
    }

    static func cookie(_ token: String?) -> String {
        guard let token else { return "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" }
        return "\(cookieName)=\(FormEncoding.escape(token)); Path=/; HttpOnly; SameSite=Strict"
    }

    /// Where to go after signing in: a path on this site only (never `//host` or a URL).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
              !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return "/" }
        return next
    }

}
