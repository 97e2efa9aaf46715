import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreEngine
import StoreKitTypes
import StoreModel
import StoreViews
import StoreTestSupport
import Testing

let storePagesCatalogJSON = fixtureCatalog("store-pages")

/// What the test pages' purchase hooks saw.
final class HookRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func record(_ event: String) { lock.withLock { events.append(event) } }
    var all: [String] { lock.withLock { events } }
}

/// A custom style whose own button buys through `configuration.purchase()` (a `.run` action).
struct CustomBuyStyle: ProductViewStyle {
    func makeBody(configuration: Configuration) -> some View {
        VStack {
            Text(configuration.product?.displayName ?? "Loading")
            Button("Custom buy") { configuration.purchase() }
        }
    }
}

@Suite(.serialized, .removesTemporaryFolders) struct StorePageRoutesTests {
    static let bundle = "com.example.storepages"
    static let recorder = HookRecorder()

    static let pages: [StorePage] = [
        StorePage(id: "shop", bundleId: bundle, title: "Test Shop", summary: "Seeds and a guide") {
            AnyView(StoreView(ids: ["p.seeds", "p.guide"]))
        },
        StorePage(id: "plans", bundleId: bundle, title: "Test Plans", summary: "The club") {
            AnyView(SubscriptionStoreView(groupID: "G").storeButton(.visible, for: .restorePurchases, .redeemCode, .policies).presented())
        },
        StorePage(id: "hooks", bundleId: bundle, title: "Hooks") {
            AnyView(ProductView(id: "p.seeds")
                .onInAppPurchaseStart { product in recorder.record("start \(product.id)") }
                .onInAppPurchaseCompletion { product, result in
                    if case .success(.success(let verified)) = result { recorder.record("done \(product.id) \(verified.unsafePayloadValue.productID)") }
                })
        },
        // The WWDC23 talk's pass sheet: `dismiss()` from `onInAppPurchaseCompletion` once bought.
        StorePage(id: "pass", bundleId: bundle, title: "Pass") {
            AnyView(StoreReader { _, environment in
                ProductView(id: "p.seeds").onInAppPurchaseCompletion { _, result in
                    if case .success(.success) = result { environment.dismiss() }
                }
            }.presented())
        },
        StorePage(id: "custom", bundleId: bundle, title: "Custom") {
            AnyView(ProductView(id: "p.guide").productViewStyle(CustomBuyStyle()))
        },
        StorePage(id: "elsewhere", bundleId: "com.example.notserved", title: "Not served") { AnyView(Text("never")) },
    ]

    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var location: String { headers.first(name: "Location") ?? "" }
        /// The `notice`/`error` a redirect carries, decoded.
        var redirectQuery: [String: String] {
            let query = location.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            var fields: [String: String] = [:]
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                fields[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return fields
        }
    }

    /// A live store with the test pages, and a client that does not follow redirects.
    func withServer(_ body: (LiveServer, HTTPClient) async throws -> Void) async throws {
        try await withStorePages([
            try StoreApp(bundleId: Self.bundle, appAppleId: 44, environment: .sandbox, name: "Pages", catalogJSON: storePagesCatalogJSON),
        ], Self.pages, body)
    }

    func send(_ client: HTTPClient, _ server: LiveServer, _ method: HTTPMethod, _ path: String, form: String? = nil,
              headers: [(String, String)] = []) async throws -> Answer {
        let answer = try await server.request(method, path, body: form.map { Data($0.utf8) }, contentType: "application/x-www-form-urlencoded",
                                              headers: headers, client: client)
        return Answer(status: answer.status, headers: answer.headers, body: answer.text)
    }

    func get(_ client: HTTPClient, _ server: LiveServer, _ path: String) async throws -> Answer {
        try await send(client, server, .GET, path)
    }

    func post(_ client: HTTPClient, _ server: LiveServer, _ path: String, _ form: String, headers: [(String, String)] = []) async throws -> Answer {
        try await send(client, server, .POST, path, form: form, headers: headers)
    }

    @Test func indexListsThePagesAndTheStartPageLinksToIt() async throws {
        try await withServer { server, client in
            let index = try await get(client, server, "/store")
            #expect(index.status == 200)
            #expect(index.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
            #expect(index.body.contains("Test Shop") && index.body.contains("Test Plans"))
            #expect(index.body.contains("href=\"/store/shop?customer=demo-customer&amp;world=default\""))
            #expect(!index.body.contains("Not served"))
            let start = try await get(client, server, "/")
            #expect(start.status == 200 && start.body.contains("href=\"/store\""))
        }
    }

    @Test func pageShowsTheProductsEscaped() async throws {
        try await withServer { server, client in
            let page = try await get(client, server, "/store/shop?customer=ann")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.body.contains("Seeds") && page.body.contains("$0.99") && page.body.contains("Guide") && page.body.contains("$4.99"))
            #expect(page.body.contains("Sunflower &lt;script&gt;alert(1)&lt;/script&gt; seeds"))
            #expect(!page.body.contains("<script>alert(1)"))
            #expect(page.body.contains("action=\"/store/shop/actions?customer=ann&amp;world=default\""))
            let missing = try await get(client, server, "/store/nope")
            #expect(missing.status == 404 && missing.body.contains("There is no store page"))
            #expect(try await get(client, server, "/store/elsewhere").status == 404)
            let dark = try await get(client, server, "/store/shop?scheme=dark&phase=loading")
            #expect(dark.body.contains("data-color-scheme=\"dark\""))
        }
    }

    @Test func purchasingAConsumableMakesATransactionAndAnEvent() async throws {
        try await withServer { server, client in
            let answer = try await post(client, server, "/store/shop/actions?customer=ann&world=default", "action=purchase%3Ap.seeds")
            #expect(answer.status == 303)
            #expect(answer.headers.first(name: "X-OpenStore-Result") == "purchased")
            #expect(answer.location.hasPrefix("/store/shop?customer=ann&world=default&notice="))
            #expect(answer.redirectQuery["notice"] == "Purchase complete: \u{2068}Seeds\u{2069}", "the name is bidi-isolated")
            let all = try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: "ann", scope: .all)
            #expect(all.map(\.payload.productId) == ["p.seeds"])
            let events = try await server.store.world(AppStore.defaultWorld).events()
            #expect(events.contains { $0.type == "ONE_TIME_CHARGE" && $0.customer == "ann" })
            let shown = try await get(client, server, answer.location)
            #expect(shown.body.contains("Purchase complete: \u{2068}Seeds\u{2069}"))
            // fetch() shows the page's script only the page it was redirected to: it repeats the result.
            #expect(shown.headers.first(name: "X-OpenStore-Result") == "purchased")
            #expect(try await get(client, server, "/store/shop?result=<bogus>").headers.first(name: "X-OpenStore-Result") == nil)
        }
    }

    @Test func subscribingShowsTheCurrentPlanAndAgainIsAnErrorNotice() async throws {
        try await withServer { server, client in
            let before = try await get(client, server, "/store/plans?customer=bo")
            #expect(before.body.contains("week free") && !before.body.contains("Current Plan"))
            let bought = try await post(client, server, "/store/plans/actions?customer=bo", "action=subscribe&product=p.silver")
            #expect(bought.status == 303 && bought.headers.first(name: "X-OpenStore-Result") == "purchased")
            let after = try await get(client, server, "/store/plans?customer=bo")
            #expect(after.body.contains("Current Plan"))
            #expect(!after.body.contains("week free"))  // the intro offer is spent in the group
            let again = try await post(client, server, "/store/plans/actions?customer=bo", "action=subscribe&product=p.silver")
            #expect(again.status == 303 && again.headers.first(name: "X-OpenStore-Result") == "failed")
            #expect(again.redirectQuery["error"]?.contains("already subscribed") == true)
            let alert = try await get(client, server, again.location)
            #expect(alert.body.contains("sk-notice-error") && alert.body.contains("role=\"alert\""))
        }
    }

    @Test func simulatedPurchaseErrorAndAskToBuy() async throws {
        try await withServer { server, client in
            _ = try await server.store.world(AppStore.defaultWorld).setSimulatedError(api: "Purchase", error: "networkError")
            let failed = try await post(client, server, "/store/shop/actions?customer=cy", "action=purchase:p.guide")
            #expect(failed.status == 303 && failed.headers.first(name: "X-OpenStore-Result") == "failed")
            #expect(failed.redirectQuery["error"]?.contains("simulated StoreKit error") == true)
            _ = try await server.store.world(AppStore.defaultWorld).setSimulatedError(api: "Purchase", error: nil)
            _ = try await server.store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(askToBuy: true))
            let pending = try await post(client, server, "/store/shop/actions?customer=cy", "action=purchase:p.guide")
            #expect(pending.headers.first(name: "X-OpenStore-Result") == "pending")
            #expect(pending.redirectQuery["notice"]?.contains("waiting for approval") == true)
        }
    }

    @Test func redeemRestoreAndDismiss() async throws {
        try await withServer { server, client in
            let redeem = try await post(client, server, "/store/plans/actions?customer=di", "action=redeem&code=NOPE")
            #expect(redeem.status == 303 && redeem.headers.first(name: "X-OpenStore-Result") == "failed")
            #expect(redeem.redirectQuery["error"]?.hasPrefix("Offer code not redeemed") == true)
            #expect(try await get(client, server, redeem.location).body.contains("sk-notice-error"))

            _ = try await post(client, server, "/store/shop/actions?customer=di", "action=purchase:p.guide")
            let restore = try await post(client, server, "/store/plans/actions?customer=di", "action=restore")
            #expect(restore.redirectQuery["notice"] == "Purchases restored (1 transaction)")
            _ = try await server.store.world(AppStore.defaultWorld).setSimulatedError(api: "App Store Sync", error: "networkError")
            let refused = try await post(client, server, "/store/plans/actions?customer=di", "action=restore")
            #expect(refused.redirectQuery["error"]?.hasPrefix("Restore failed") == true)

            let dismiss = try await post(client, server, "/store/plans/actions?customer=di", "action=dismiss")
            #expect(dismiss.status == 303 && dismiss.location == "/store?customer=di&world=default&result=dismissed")
            #expect(dismiss.headers.first(name: "X-OpenStore-Result") == "dismissed")

            let unknown = try await post(client, server, "/store/plans/actions?customer=di", "action=a99")
            #expect(unknown.status == 422 && unknown.body.contains("no action"))
            #expect(try await post(client, server, "/store/plans/actions?customer=di", "product=p.gold").status == 422)
        }
    }

    @Test func redeemingAnOfferCodeSubscribesAndThePageShowsIt() async throws {
        try await withServer { server, client in
            _ = try await server.store.world(AppStore.defaultWorld).createOfferCodes(.init(offer: "FREEMONTH", codes: ["BIRDS26"]), bundleId: Self.bundle)
            let redeemed = try await post(client, server, "/store/plans/actions?customer=ro", "action=redeem&code=BIRDS26")
            #expect(redeemed.status == 303 && redeemed.headers.first(name: "X-OpenStore-Result") == "redeemed")
            #expect(redeemed.redirectQuery["notice"] == "Offer code redeemed: \u{2068}Silver\u{2069}")
            let entitled = try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: "ro", scope: .entitlements)
            #expect(entitled.map(\.payload.productId) == ["p.silver"])
            #expect(try await get(client, server, redeemed.location).body.contains("Current Plan"))
        }
    }

    @Test func hooksAndCustomStyleButtonsPurchase() async throws {
        try await withServer { server, client in
            let hooked = try await post(client, server, "/store/hooks/actions?customer=ed", "action=purchase:p.seeds")
            #expect(hooked.headers.first(name: "X-OpenStore-Result") == "purchased")
            #expect(hooked.redirectQuery["notice"] == nil)  // the page's own completion hook handled it
            #expect(Self.recorder.all.suffix(2) == ["start p.seeds", "done p.seeds p.seeds"])

            // "Meet StoreKit for SwiftUI" (WWDC23) closes its pass sheet with `dismiss()` inside
            // `onInAppPurchaseCompletion`: the page closes after the purchase, as a sheet would.
            let pass = try await post(client, server, "/store/pass/actions?customer=pd", "action=purchase:p.seeds")
            #expect(pass.status == 303 && pass.location.hasPrefix("/store?customer=pd&world=default"), "\(pass.location)")
            #expect(pass.headers.first(name: "X-OpenStore-Result") == "purchased")
            _ = try await server.store.world(AppStore.defaultWorld).setSimulatedError(api: "Purchase", error: "networkError")
            let failed = try await post(client, server, "/store/pass/actions?customer=pd2", "action=purchase:p.seeds")
            #expect(failed.location.hasPrefix("/store/pass?"), "a failed purchase leaves the sheet open: \(failed.location)")
            _ = try await server.store.world(AppStore.defaultWorld).setSimulatedError(api: "Purchase", error: nil)

            let page = try await get(client, server, "/store/custom?customer=ed")
            let match = try #require(page.body.firstMatch(of: /name="action" value="(a\d+)"[^>]*>Custom buy/))
            let custom = try await post(client, server, "/store/custom/actions?customer=ed", "action=\(match.1)")
            #expect(custom.headers.first(name: "X-OpenStore-Result") == "purchased")
            #expect(try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: "ed", scope: .entitlements)
                .map(\.payload.productId) == ["p.guide"])
        }
    }

    @Test func hostileCustomerNamesAreEscaped() async throws {
        try await withServer { server, client in
            let name = "<script>x()</script>\"'&"
            let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let page = try await get(client, server, "/store/shop?customer=\(encoded)")
            #expect(page.status == 200)
            #expect(!page.body.contains("<script>x()"))
            #expect(page.body.contains("value=\"&lt;script&gt;x()&lt;/script&gt;&quot;&#39;&amp;\""))
            let bought = try await post(client, server, "/store/shop/actions?customer=\(encoded)", "action=purchase:p.seeds")
            #expect(bought.status == 303 && bought.location.hasPrefix("/store/shop?customer=%3Cscript%3Ex%28%29%3C%2Fscript%3E%22%27%26&"))
            #expect(try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: name, scope: .all).count == 1)
        }
    }

    @Test func crossOriginPostsAreRefused() async throws {
        try await withServer { server, client in
            let host = String(server.base.dropFirst("http://".count))
            let hostile = try await post(client, server, "/store/shop/actions?customer=fi", "action=purchase:p.seeds",
                                         headers: [("Origin", "http://evil.example")])
            #expect(hostile.status == 403)
            let otherPort = try await post(client, server, "/store/shop/actions?customer=fi", "action=purchase:p.seeds",
                                           headers: [("Origin", "http://127.0.0.1:1")])
            #expect(otherPort.status == 403)
            let opaque = try await post(client, server, "/store/shop/actions?customer=fi", "action=purchase:p.seeds", headers: [("Origin", "null")])
            #expect(opaque.status == 403)
            #expect(try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: "fi", scope: .all).isEmpty)
            let same = try await post(client, server, "/store/shop/actions?customer=fi", "action=purchase:p.seeds",
                                      headers: [("Origin", "http://\(host)")])
            #expect(same.status == 303)
        }
    }

    @Test func worldsStayApart() async throws {
        try await withServer { server, client in
            _ = try await server.store.createWorld("wx")
            let bought = try await post(client, server, "/store/shop/actions?customer=gil&world=wx", "action=purchase:p.guide")
            #expect(bought.location.hasPrefix("/store/shop?customer=gil&world=wx&"))
            let inX = try await get(client, server, "/store/shop?customer=gil&world=wx")
            #expect(inX.body.contains("✓ Purchased") && inX.body.contains("World: wx"))
            #expect(inX.body.contains("actions?customer=gil&amp;world=wx"))
            let inDefault = try await get(client, server, "/store/shop?customer=gil")
            #expect(!inDefault.body.contains("✓ Purchased"))
            #expect(try await server.store.world(AppStore.defaultWorld).transactions(bundleId: Self.bundle, customer: "gil", scope: .all).isEmpty)
            let nowhere = try await get(client, server, "/store/shop?customer=gil&world=nope")
            #expect(nowhere.status == 404 && nowhere.body.contains("no world named nope"))
        }
    }

    @Test func policiesComeFromTheCatalog() async throws {
        try await withServer { server, client in
            let page = try await get(client, server, "/store/plans?customer=hal")
            #expect(page.body.contains("href=\"/store/plans/terms?customer=hal&amp;world=default\""))
            #expect(page.body.contains("href=\"/store/plans/privacy?customer=hal&amp;world=default\""))
            let terms = try await get(client, server, "/store/plans/terms")
            #expect(terms.status == 200 && terms.body.contains("Be &lt;kind&gt; &amp; fair.\nSecond line."))
            let privacy = try await get(client, server, "/store/plans/privacy?customer=hal")
            #expect(privacy.status == 200 && privacy.body.contains("We keep &lt;nothing&gt;."))
        }
    }
}
