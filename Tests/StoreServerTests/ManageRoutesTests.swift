import StoreShared
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreEngine
import StoreModel
import StoreSigning
@testable import StoreServer
import StoreTestSupport
import Testing

/// The web Transaction Manager (`/manage`, issue 13) over real HTTP: its pages render what the
/// engine holds, its forms act through the engine with Post/Redirect/Get, destructive ones ask
/// first, hostile text stays text, bad input gets a 4xx page, and access follows the admin API.
@Suite(.serialized, .removesTemporaryFolders) struct ManageRoutesTests {
    static let bundle = "com.example.storepages"
    static let hostile = "<img src=x onerror=alert(1)>\"'&"

    /// A client that does not follow redirects, shared by the suite's tests (shut down with the process).
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    struct Page {
        var status: Int
        var location: String?
        var headers: HTTPHeaders
        var body: String
    }

    func withServer(adminToken: String? = nil, peer: SocketAddress? = nil, _ body: (LiveServer) async throws -> Void) async throws {
        try await LiveServer.with(apps: [
            try StoreApp(bundleId: Self.bundle, appAppleId: 5, environment: .sandbox, name: "Shop <b>&", catalogJSON: storePagesCatalogJSON),
        ], adminToken: adminToken, peer: peer, body)
    }

    /// One request; redirects are not followed, so each step of Post/Redirect/Get is seen.
    func send(_ server: LiveServer, _ method: HTTPMethod, _ path: String, form: [(String, String)]? = nil, headers: [(String, String)] = [],
              rawBody: String? = nil) async throws -> Page {
        let body = rawBody ?? form.map { FormEncoding.query($0.map { ($0.0, $0.1) }) }
        let answer = try await server.request(method, path, body: body.map { Data($0.utf8) }, contentType: "application/x-www-form-urlencoded",
                                              headers: headers, client: Self.client, timeout: .seconds(60))
        return Page(status: answer.status, location: answer.headers.first(name: "Location"), headers: answer.headers, body: answer.text)
    }

    func act(_ server: LiveServer, _ fields: [(String, String)], world: String = "default") async throws -> Page {
        try await send(server, .POST, "/manage/actions", form: [("world", world), ("back", "/manage/world?world=\(world)")] + fields)
    }

    /// Follows `/manage/progress` until the advance finished; returns the final redirect target.
    func finishAdvance(_ server: LiveServer, _ posted: Page) async throws -> String {
        #expect(posted.status == 303)
        let progress = try #require(posted.location)
        #expect(progress.hasPrefix("/manage/progress?"))
        for _ in 0..<600 {
            let page = try await send(server, .GET, progress)
            if page.status == 303 { return try #require(page.location) }
            #expect(page.status == 200 && page.body.contains("<progress"))
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the clock advance never finished")
        return ""
    }

    func purchase(_ server: LiveServer, _ product: String, _ customer: String) async throws -> [String: Any] {
        let answer = try await server.json(.POST, "/storekit/v1/apps/\(Self.bundle)/purchases", ["productId": product, "customer": customer])
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
        return answer.json["transaction"] as? [String: Any] ?? [:]
    }

    @Test func everyPageRendersAsACompleteDocumentWithoutExternalRequests() async throws {
        try await withServer { server in
            _ = try await purchase(server, "p.gold", "jane")
            for path in ["/manage", "/manage/world", "/manage/customers", "/manage/customer?id=jane", "/manage/settings", "/manage/notifications",
                         "/manage/events", "/manage/keys", "/manage/charts", "/manage/login"] {
                let page = try await send(server, .GET, path)
                #expect(page.status == 200, "\(path)")
                #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8", "\(path)")
                #expect(page.body.hasPrefix("<!DOCTYPE html>") && page.body.hasSuffix("</html>"), "\(path)")
                #expect(page.body.contains("default-src 'none'"), "\(path) carries the store pages' CSP")
                #expect(page.headers.first(name: "X-Frame-Options") == "DENY", "\(path)")
                // Nothing is fetched: no src/href to another origin, no stylesheet links.
                #expect(!page.body.contains("src=\"http") && !page.body.contains("href=\"http") && !page.body.contains("<link"), "\(path)")
                // Every POST form posts natively (works without the page script).
                let forms = page.body.components(separatedBy: "<form method=\"post\"").count - 1
                let native = page.body.components(separatedBy: "data-sk-native=\"1\"").count - 1
                #expect(native >= forms, "\(path): \(forms) post forms, \(native) native")
            }
        }
    }

    @Test func theQARoutineRunsThroughTheEngine() async throws {
        try await withServer { server in
            let created = try await send(server, .POST, "/manage/actions", form: [("action", "create-world"), ("id", "qa-1"), ("rate", "0"), ("back", "/manage")])
            #expect(created.status == 303 && created.location?.hasPrefix("/manage/world?world=qa-1") == true)
            let answer = try await server.json(.POST, "/storekit/v1/worlds/qa-1/apps/\(Self.bundle)/purchases", ["productId": "p.gold", "customer": "ana"])
            #expect(answer.status == 200)
            let first = try #require((answer.json["transaction"] as? [String: Any])?["transactionId"] as? String)

            // A month passes on /manage: the trial converts and the renewals fire.
            let done = try await finishAdvance(server, try await act(server, [("action", "advance"), ("duration", "P1M")], world: "qa-1"))
            #expect(done.contains("world=qa-1") && done.contains("notice="))
            let customer = try await send(server, .GET, "/manage/customer?world=qa-1&id=ana&app=\(Self.bundle)")
            #expect(customer.status == 200)
            let renewals = try await server.store.world("qa-1").customerHistory(bundleId: Self.bundle, customer: "ana")
            #expect(renewals.total >= 2, "a month later the subscription has renewed")
            let latest = try #require(renewals.transactions.first?.payload)
            #expect(latest.transactionId != first && latest.originalTransactionId == first)
            #expect(customer.body.contains("Transactions (\(renewals.total))"))
            #expect(customer.body.contains(latest.transactionId) && customer.body.contains("class=\"mg-timeline\""))

            // Refund asks first, then refunds through the engine and comes back with a notice.
            let refund: [(String, String)] = [("action", "refund"), ("transactionId", latest.transactionId)]
            let ask = try await act(server, refund, world: "qa-1")
            #expect(ask.status == 200 && ask.body.contains("Are you sure?") && ask.body.contains("name=\"confirmed\" value=\"yes\""))
            #expect(try await server.store.world("qa-1").customerHistory(bundleId: Self.bundle, customer: "ana").transactions.first?.payload.revocationDate == nil,
                    "nothing happens before the confirmation")
            let refunded = try await act(server, refund + [("confirmed", "yes")], world: "qa-1")
            #expect(refunded.status == 303 && refunded.location?.contains("notice=") == true)
            #expect(refunded.headers.first(name: "X-OpenStore-Result") == "done")
            let after = try await server.store.world("qa-1").customerHistory(bundleId: Self.bundle, customer: "ana")
            #expect(after.transactions.first { $0.payload.transactionId == latest.transactionId }?.payload.revocationDate != nil)
            let events = try await server.store.world("qa-1").events()
            #expect(events.contains { $0.type == "REFUND" && $0.transactionId.map(String.init) == latest.transactionId })
            let log = try await send(server, .GET, "/manage/events?world=qa-1")
            #expect(log.body.contains("REFUND"))
            // Refusals are notices on the page, not failed requests.
            let twice = try await act(server, refund + [("confirmed", "yes")], world: "qa-1")
            #expect(twice.status == 303 && twice.location?.contains("error=") == true && twice.headers.first(name: "X-OpenStore-Result") == "failed")
        }
    }

    @Test func clockPausesResumesAndChangesRate() async throws {
        try await withServer { server in
            _ = try await server.store.createWorld("clock", rate: .apple(.oneSecondIsOneDay))
            #expect(try await act(server, [("action", "pause")], world: "clock").status == 303)
            let paused = try await server.store.worldInfo("clock")
            #expect(paused.clockSpeed == 0)
            #expect(try await server.store.world("clock").nowMs() == paused.nowMs, "a paused clock stands still")
            #expect(try await send(server, .GET, "/manage/world?world=clock").body.contains("Resume clock"))
            _ = try await finishAdvance(server, try await act(server, [("action", "advance"), ("duration", "P1D")], world: "clock"))
            #expect(try await server.store.world("clock").nowMs() == paused.nowMs + 86_400_000, "advances still move a paused clock")
            #expect(try await act(server, [("action", "resume")], world: "clock").status == 303)
            #expect(try await server.store.worldInfo("clock").rate == TimeRate.apple(.oneSecondIsOneDay).description)
            #expect(try await act(server, [("action", "rate"), ("rate", ""), ("multiplier", "720x")], world: "clock").status == 303)
            #expect(try await server.store.worldInfo("clock").rate == "720x")
        }
    }

    @Test func hostileTextIsInertOnEveryPage() async throws {
        try await withServer { server in
            #expect(try await act(server, [("action", "save-customer"), ("customer", Self.hostile)]).status == 303)
            _ = try await purchase(server, "p.guide", Self.hostile)
            _ = try await server.store.world(AppStore.defaultWorld).joinFamily(customer: Self.hostile, group: "<svg onload=alert(2)>")
            let query = FormEncoding.query([("id", Self.hostile), ("q", "<img"), ("type", "<x>"), ("customer", Self.hostile),
                                            ("notice", "<script>alert(3)</script>")])
            for path in ["/manage/customers", "/manage/customer", "/manage/notifications", "/manage/events", "/manage/world"] {
                let page = try await send(server, .GET, "\(path)?\(query)")
                #expect(page.status == 200, "\(path)")
                #expect(!page.body.contains("<img src=x") && !page.body.contains("<svg onload") && !page.body.contains("<script>alert"), "\(path)")
                #expect(!page.body.contains("Shop <b>"), "\(path): the app name is escaped too")
            }
            let customer = try await send(server, .GET, "/manage/customer?\(query)")
            #expect(customer.body.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"))
            #expect(customer.body.contains("&lt;svg onload=alert(2)&gt;"))
            #expect(customer.body.contains("&lt;script&gt;alert(3)&lt;/script&gt;"), "the notice from the URL is shown as text")
            let list = try await send(server, .GET, "/manage/customers?q=\(FormEncoding.escape("onerror"))")
            #expect(list.body.contains("1 customer match"))
        }
    }

    @Test func badInputGetsAClearFourHundred() async throws {
        try await withServer { server in
            let crossSite = try await send(server, .POST, "/manage/actions", form: [("action", "pause"), ("world", "default")],
                                           headers: [("Origin", "http://evil.example")])
            #expect(crossSite.status == 403 && crossSite.body.contains("another site"))
            #expect(try await server.store.worldInfo("default").clockSpeed > 0, "the cross-site post changed nothing")
            #expect(try await send(server, .POST, "/manage/actions", form: [("action", "teleport")]).status == 422, "an action the store has not")
            #expect(try await send(server, .POST, "/manage/actions", form: []).status == 422, "no action")
            #expect(try await act(server, [("action", "refund"), ("confirmed", "yes")]).status == 422, "no transaction named")
            #expect(try await send(server, .GET, "/manage/customer").status == 400)
            #expect(try await send(server, .GET, "/manage/world?world=nowhere").status == 404)
            #expect(try await send(server, .GET, "/manage/customer?id=a&app=com.example.none").status == 404)
            #expect(try await send(server, .GET, "/manage/progress?job=nope").status == 404)
            #expect(try await send(server, .GET, "/manage/events/stream?after=-3").status == 400)
            let big = try await send(server, .POST, "/manage/actions", rawBody: "action=pause&x=" + String(repeating: "a", count: 40_000))
            #expect(big.status == 413)
            let duration = try await act(server, [("action", "advance"), ("duration", "a fortnight")])
            #expect(duration.status == 303 && duration.location?.contains("error=") == true)
            let offsite = try await act(server, [("action", "pause"), ("back", "https://evil.example/")])
            #expect(offsite.status == 303 && offsite.location?.hasPrefix("/manage") == true, "back never leaves the dashboard")
        }
    }

    @Test func keysAreCreatedShownOnceListedAndRevoked() async throws {
        try await withServer { server in
            let created = try await act(server, [("action", "create-key"), ("app", Self.bundle)])
            #expect(created.status == 200 && created.body.contains("BEGIN PRIVATE KEY") && created.body.contains("download=\"AuthKey_"))
            let keys = try await server.store.world(AppStore.defaultWorld).apiKeys()
            let key = try #require(keys.first)
            let list = try await send(server, .GET, "/manage/keys")
            #expect(list.body.contains(key.keyId) && !list.body.contains("BEGIN PRIVATE KEY"), "the private key is never shown again")
            #expect(try await act(server, [("action", "revoke-key"), ("keyId", key.keyId), ("confirmed", "yes")]).status == 303)
            #expect(try await server.store.world(AppStore.defaultWorld).apiKeys().isEmpty)
        }
    }

    @Test func aRevokedKeyIsRefusedByTheServerAPI() async throws {
        try await withServer { server in
            let bought = try #require(try await purchase(server, "p.guide", "ana")["transactionId"] as? String)
            let generated = try await server.store.world(AppStore.defaultWorld).createAPIKey(bundleId: Self.bundle)
            let token = try APITokenSigner(generated: generated).token(now: Date(), options: .swift)
            let path = "/inApps/v1/transactions/\(bought)"
            let before = try await send(server, .GET, path, headers: [("Authorization", "Bearer \(token)")])
            #expect(before.status == 200, "the key works (and is cached by the gateway)")
            #expect(try await act(server, [("action", "revoke-key"), ("keyId", generated.key.keyId), ("confirmed", "yes")]).status == 303)
            let after = try await send(server, .GET, path, headers: [("Authorization", "Bearer \(token)")])
            #expect(after.status == 401)
        }
    }

    @Test func withoutATokenOnlyLoopbackGetsIn() async throws {
        try await withServer(peer: try SocketAddress(ipAddress: "203.0.113.9", port: 40_000)) { server in
            let page = try await send(server, .GET, "/manage")
            #expect(page.status == 403 && page.body.contains("loopback"))
            #expect(try await send(server, .POST, "/manage/actions", form: [("action", "pause"), ("world", "default")]).status == 403)
            #expect(try await server.store.worldInfo("default").clockSpeed > 0)
        }
    }

    @Test func withATokenTheLoginCookieLetsIn() async throws {
        try await withServer(adminToken: "s3cret", peer: try SocketAddress(ipAddress: "203.0.113.9", port: 40_000)) { server in
            let anonymous = try await send(server, .GET, "/manage/customers?world=default")
            #expect(anonymous.status == 303 && anonymous.location?.hasPrefix("/manage/login?next=") == true)
            #expect(try await send(server, .POST, "/manage/actions", form: [("action", "pause"), ("world", "default")]).status == 401)
            let wrong = try await send(server, .POST, "/manage/login", form: [("token", "guess"), ("next", "/manage/keys")])
            #expect(wrong.status == 401 && wrong.headers.first(name: "Set-Cookie") == nil)
            let forged = try await send(server, .GET, "/manage", headers: [("Cookie", "openstore_admin=guess")])
            #expect(forged.status == 303)
            let login = try await send(server, .POST, "/manage/login", form: [("token", "s3cret"), ("next", "/manage/keys")])
            #expect(login.status == 303 && login.location == "/manage/keys")
            let cookie = try #require(login.headers.first(name: "Set-Cookie"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/manage"))
            let session = String(cookie.split(separator: ";")[0])
            #expect(try await send(server, .GET, "/manage/keys", headers: [("Cookie", session)]).status == 200)
            #expect(try await send(server, .GET, "/manage", headers: [("Cookie", session)]).body.contains(">Sign out</button>"))
            let acted = try await send(server, .POST, "/manage/actions", form: [("action", "pause"), ("world", "default"), ("back", "/manage")],
                                       headers: [("Cookie", session)])
            #expect(acted.status == 303)
            #expect(try await server.store.worldInfo("default").clockSpeed == 0)
            let offsite = try await send(server, .POST, "/manage/login", form: [("token", "s3cret"), ("next", "//evil.example/")])
            #expect(offsite.location == "/manage", "login never redirects off the dashboard")
            let out = try await send(server, .POST, "/manage/logout", headers: [("Cookie", session)])
            #expect(out.status == 303 && out.headers.first(name: "Set-Cookie")?.contains("Max-Age=0") == true)
        }
    }

    @Test func datesReadAsFoundationWritesThem() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        for ms: Int64 in [0, 999, 1_000, 951_782_400_000, 951_868_799_999, 1_709_164_800_000, 1_795_000_000_123, 4_102_444_800_000,
                          -1, -1_000, -86_400_001, -2_208_988_800_000, 253_402_300_799_000] {
            let expected = formatter.string(from: Date(timeIntervalSince1970: (Double(ms) / 1000).rounded(.down)))
            #expect(ManagePages.date(ms) == expected, "\(ms)")
        }
        #expect(ManagePages.date(nil) == "—")
    }

    @Test func chartsAndTimelinesCarryTextAlternatives() async throws {
        try await withServer { server in
            _ = try await purchase(server, "p.gold", "jane")
            _ = try await purchase(server, "p.seeds", "jane")
            let charts = try await send(server, .GET, "/manage/charts")
            for id in ["mg-chart-subscriptions", "mg-chart-revenue", "mg-chart-deliveries"] {
                #expect(charts.body.contains("aria-labelledby=\"\(id)-title\""), "\(id)")
            }
            #expect(charts.body.components(separatedBy: "role=\"img\"").count - 1 == 3, "each chart is one image with a spoken summary")
            #expect(charts.body.contains("Revenue over") && charts.body.contains("0.99 USD"))
            #expect(charts.body.contains("<summary>Active subscriptions and renewals per day: the numbers</summary>"))
            let figures = try await server.store.world(AppStore.defaultWorld).dashboardFigures()
            #expect(figures.days.last?.activeSubscriptions == 1)
            #expect(figures.revenue.first { $0.currency == "USD" }?.perDay.last == 990, "the consumable's 0.99; the trial is free")
            let customer = try await send(server, .GET, "/manage/customer?id=jane")
            #expect(customer.body.contains("class=\"mg-timeline\"") && customer.body.contains("aria-label=\"Timeline: 1 period from"))
        }
    }

    /// The customer page's timeline is drawn from runs of periods (SQL groups them): renewals back
    /// to back are one counted bar, a refunded period is a red bar of its own, a billing-retry
    /// recovery starts a new run after a gap (BillingRetry: "after [the grace period], a new
    /// period starts on the recovery date"), and billing retry itself shows after the last period.
    @Test func timelineDrawsRunsRefundsAndBillingRetry() async throws {
        try await withServer { server in
            let store = server.store
            _ = try await store.createWorld("runs", rate: .multiplier(0))
            func buy(_ customer: String) async throws -> String {
                let outcome = try await store.world("runs").purchase(PurchaseRequest(bundleId: Self.bundle, productId: "p.gold", customer: customer))
                return try #require(outcome.transaction?.payload.transactionId)
            }
            func page(_ customer: String) async throws -> String {
                let page = try await send(server, .GET, "/manage/customer?world=runs&id=\(customer)&app=\(Self.bundle)")
                #expect(page.status == 200)
                return page.body
            }
            // Renewals back to back: one run holding every period.
            let first = try await buy("rita")
            _ = try await store.advanceTime("runs", by: try DurationParser.parse("P3M"))
            var history = try await store.world("runs").customerHistory(bundleId: Self.bundle, customer: "rita", limit: 100)
            #expect(history.total >= 4, "the trial and three monthly renewals")
            #expect(history.runs.count == 1)
            #expect(history.runs.first?.periods == history.total && history.runs.first?.firstId == Int64(first))
            #expect(history.runs.first?.endMs == history.transactions.compactMap(\.payload.expiresDate).max())
            // Pages of the history are slices of it, newest purchase first; past the end, an empty page and the total.
            let ids = history.transactions.map(\.payload.transactionId)
            #expect(history.transactions.map(\.payload.purchaseDate) == history.transactions.map(\.payload.purchaseDate).sorted(by: >))
            let slice = try await store.world("runs").customerHistory(bundleId: Self.bundle, customer: "rita", offset: 1, limit: 2)
            #expect(slice.transactions.map(\.payload.transactionId) == Array(ids[1...2]) && slice.total == history.total && slice.offset == 1)
            let past = try await store.world("runs").customerHistory(bundleId: Self.bundle, customer: "rita", offset: 50, limit: 10)
            #expect(past.transactions.isEmpty && past.total == history.total && past.offset == history.total)
            var body = try await page("rita")
            #expect(body.contains("aria-label=\"Timeline: \(history.total) periods from"))
            #expect(body.contains(">×\(history.total - 1)</text>"), "the run's past periods are counted on their bar")
            #expect(body.components(separatedBy: "<rect ").count - 1 == 2, "one bar for the past periods, one for the current period")
            #expect(body.contains("<rect class=\"mg-bar-expired\"") && body.contains("<rect class=\"mg-bar-a\""))
            #expect(body.contains("\(history.transactions[0].payload.transactionId) p.gold: ") && body.contains("(current period)</title>"))

            // The latest period refunded: a revoked run of its own after the others.
            let latest = try #require(history.transactions.first?.payload.transactionId)
            _ = try await store.world("runs").refund(transactionId: latest)
            history = try await store.world("runs").customerHistory(bundleId: Self.bundle, customer: "rita", limit: 100)
            #expect(history.runs.map(\.periods) == [history.total - 1, 1])
            #expect(history.runs.last?.revokedMs != nil && history.runs.last?.firstId == Int64(latest))
            body = try await page("rita")
            #expect(body.contains("periods in 2 runs from") && body.contains(", 1 revoked"))
            #expect(body.contains("class=\"mg-bar-revoked\""))

            // Billing retry after the trial: drawn after the last period, then a recovery starts a new run.
            _ = try await store.world("runs").setSwitches(SessionSwitches(failRenewals: true))
            let second = try await buy("bill")
            _ = try await store.advanceTime("runs", by: try DurationParser.parse("P10D"))
            body = try await page("bill")
            #expect(body.contains("; in billing retry since"), "the timeline says the subscription is in billing retry")
            #expect(body.contains("class=\"mg-bar-fail\"") && body.contains("<title>Billing retry since"))
            _ = try await store.world("runs").setSwitches(SessionSwitches(failRenewals: false))
            _ = try await store.world("runs").resolveIssue(second)
            history = try await store.world("runs").customerHistory(bundleId: Self.bundle, customer: "bill", limit: 100)
            #expect(history.runs.count == 2, "the recovered period starts after a gap: \(history.runs)")
            if history.runs.count == 2 { #expect(history.runs[1].startMs > history.runs[0].endMs) }
            body = try await page("bill")
            #expect(!body.contains("in billing retry since") && body.contains("in 2 runs"))
        }
    }
}
