import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import StoreShared
import StoreTestSupport
import Testing
@testable import SubscriptionBackend

/// The dashboard over real HTTP on loopback, on a backend started with an API token: the access
/// rule of the store's admin (token elsewhere: a bearer header or a sign-in cookie that is
/// HttpOnly and SameSite=Strict), the page's figures equal to `GET /v1/admin/overview`, and
/// hostile customer and entitlement names shown as text.
@Suite struct DashboardHTTPTests {
    static let token = "dash-token-\(UUID().uuidString.prefix(8))"
    static let hostileUser = "<script>alert(1)</script>\"'&amp;<img src=x onerror=alert(2)>"
    static let hostileEntitlement = "<b onmouseover=alert(3)>pro</b>"

    /// A backend with a token and an HTTP server on a free loopback port; cleaned up after `body`.
    static func withServer(_ body: (SignedDataKit, SubscriptionBackend, Client) async throws -> Void) async throws {
        let kit = try SignedDataKit()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backend-dashboard-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BackendDatabase.open(path: folder.appendingPathComponent("backend.sqlite").path)
        let app = AppConfiguration(bundleId: kit.bundleId, environments: ["Sandbox"], trustAppleRoot: false,
                                   entitlements: ["plus.monthly": hostileEntitlement])
        let backend = try SubscriptionBackend(configuration: BackendConfiguration(apps: [app], apiToken: token),
                                              database: database, extraRootsDER: [kit.authority.rootDER])
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let server = BackendHTTPServer(backend: backend, reconciler: Reconciler(backend: backend, http: http),
                                       dispatcher: WebhookDispatcher(backend: backend, http: http))
        do {
            try await withStarted({ try await serveOnLoopback(server.makeRouter()) }, stop: { await $0.stop() }) { running in
                try await body(kit, backend, Client(base: "http://127.0.0.1:\(running.port)", http: http))
            }
        } catch {
            try? await http.shutdown()
            await database.close()
            throw error
        }
        try await http.shutdown()
        await database.close()
    }

    struct Client {
        let base: String
        let http: HTTPClient

        struct Answer {
            var status: Int
            var headers: HTTPHeaders
            var text: String
        }

        func send(_ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], form: String? = nil) async throws -> Answer {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if let form {
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.body = .bytes(ByteBuffer(string: form))
            }
            let response = try await http.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 8 * 1024 * 1024)
            return Answer(status: Int(response.status.code), headers: response.headers, text: String(buffer: body))
        }

        func get(_ path: String, bearer: Bool = true) async throws -> Answer {
            try await send(.GET, path, headers: bearer ? [("Authorization", "Bearer \(DashboardHTTPTests.token)")] : [])
        }
    }

    /// The text of each `data-figure` value on the page.
    static func figures(in html: String) throws -> [String: String] {
        let pattern = try NSRegularExpression(pattern: #"data-figure="([A-Za-z0-9]+)"[^>]*><span class="bd-value">([^<]*)</span>"#)
        var out: [String: String] = [:]
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            out[String(html[Range(match.range(at: 1), in: html)!])] = String(html[Range(match.range(at: 2), in: html)!])
        }
        return out
    }

    @Test func withATokenEveryPageNeedsItAndTheSignInCookieIsStrict() async throws {
        try await Self.withServer { _, _, client in
            // A browser without the token is sent to sign in, and comes back where it was going.
            let page = try await client.get("/customers?q=a", bearer: false)
            #expect(page.status == 303 && page.headers.first(name: "Location") == "/login?next=%2Fcustomers%3Fq%3Da")
            #expect(try await client.get("/v1/admin/overview", bearer: false).status == 401)
            let login = try await client.get("/login", bearer: false)
            #expect(login.status == 200 && login.text.contains("type=\"password\""))

            let wrong = try await client.send(.POST, "/login", form: "token=guess&next=%2F")
            #expect(wrong.status == 401 && wrong.headers.first(name: "Set-Cookie") == nil)
            let right = try await client.send(.POST, "/login", form: "token=\(Self.token)&next=%2Fcustomers")
            #expect(right.status == 303 && right.headers.first(name: "Location") == "/customers")
            let cookie = try #require(right.headers.first(name: "Set-Cookie"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
            let pair = String(cookie.split(separator: ";")[0])
            #expect(try await client.send(.GET, "/", headers: [("Cookie", pair)]).status == 200)
            #expect(try await client.send(.GET, "/", headers: [("Cookie", "openstore_backend=nope")]).status == 303)
            // Never a redirect off the site after signing in.
            let away = try await client.send(.POST, "/login", form: "token=\(Self.token)&next=%2F%2Fevil.example%2F")
            #expect(away.headers.first(name: "Location") == "/")
            let out = try await client.send(.POST, "/logout")
            #expect(out.status == 303 && out.headers.first(name: "Set-Cookie")?.contains("Max-Age=0") == true)
        }
    }

    @Test func thePageShowsTheAPIsFiguresAndHostileTextAsText() async throws {
        try await Self.withServer { kit, backend, client in
            let d = SignedDataKit.day, t0 = SignedDataKit.start
            _ = try await backend.receiveTransaction(appUserId: Self.hostileUser, signedTransaction: try kit.sign(
                kit.transaction(id: "10", original: "10", purchase: t0, expires: t0 + 31 * d)))
            var yearly = kit.transaction(id: "11", original: "11", product: "plus.yearly", purchase: t0 + 2 * d, expires: t0 + 367 * d)
            yearly["price"] = 39990
            _ = try await backend.receiveTransaction(appUserId: "zoe", signedTransaction: try kit.sign(yearly))

            let api = try await client.get("/v1/admin/overview")
            #expect(api.status == 200)
            let figures = try JSONDecoder().decode(OverviewFigures.self, from: Data(api.text.utf8))
            #expect(figures.activeSubscriptions == 2 && figures.mrr.map(\.amount) == [8.32])
            let page = try await client.get("/")
            #expect(page.status == 200 && page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
            let csp = try #require(page.headers.first(name: "Content-Security-Policy"))
            #expect(csp.contains("default-src 'none'") && !csp.contains("unsafe-inline") && !page.text.contains("<script"))
            #expect(try Self.figures(in: page.text) == [
                "activeSubscriptions": "2", "activeTrials": "0", "mrr": "8.32 USD", "revenueLast28Days": "44.98 USD",
                "newCustomers": "2", "trialConversion": "n/a", "churn": "n/a", "refundRate": "0.0%", "refundRequests": "0",
            ])
            #expect(page.text.contains("<svg class=\"mg-chart\"") && page.text.contains("Revenue per day by currency"))

            // Attributes the app set are the customer's own text: shown escaped, like the ID.
            _ = try await backend.setAttributes(appUserId: Self.hostileUser, ["$displayName": "<i onclick=alert(4)>Ann</i>"])
            _ = try await backend.customerInfo(appUserId: Self.hostileUser)
            await backend.lastSeen.flush()

            // Lookup by a piece of the hostile ID and by transaction ID; the customer page.
            let search = try await client.get("/customers?q=" + FormEncoding.escape("<script>"))
            #expect(search.status == 200 && search.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(try await client.get("/customers?q=11").text.contains("href=\"/customers/zoe\""))
            let customer = try await client.get(DashboardDocument.customerURL(Self.hostileUser))
            #expect(customer.status == 200)
            #expect(!customer.text.contains("<script>alert") && !customer.text.contains("<img src=x") && !customer.text.contains("<b onmouseover"))
            #expect(customer.text.contains("&lt;b onmouseover=alert(3)&gt;pro&lt;/b&gt;"), "the entitlement's name, escaped")
            #expect(customer.text.contains("data-event=\"INITIAL_PURCHASE\""))
            #expect(!customer.text.contains("<i onclick") && customer.text.contains("&lt;i onclick=alert(4)&gt;Ann&lt;/i&gt;"))
            #expect(customer.text.contains("Last seen by the app") && !customer.text.contains("never"), "the app's read above was noted")

            // Bad input is a clear 4xx.
            #expect(try await client.get("/customers/nobody").status == 404)
            #expect(try await client.get("/?environment=Elsewhere").status == 400)
            #expect(try await client.get("/v1/admin/overview?environment=Elsewhere").status == 400)
            #expect(try await client.get("/customers?q=" + String(repeating: "x", count: 300)).status == 400)
            // The limit counts characters as sent: spaces around count, two-byte letters count once.
            #expect(try await client.get("/customers?q=x" + String(repeating: "+", count: 300)).status == 400)
            #expect(try await client.get("/customers?q=" + FormEncoding.escape(String(repeating: "é", count: 200))).status == 200)
            #expect(try await client.get("/customers/" + FormEncoding.escape(String(repeating: "é", count: 200))).status == 404)
            #expect(try await client.get("/customers/" + String(repeating: "y", count: 300)).status == 400)
        }
    }
}
