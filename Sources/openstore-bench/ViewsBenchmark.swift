import Foundation
import StoreKitTypes
import StoreModel
import StoreViews

/// Server render time, weight and outside references of each demo store page, rendered the way the
/// server renders a GET: `PageRenderer.render` on one thread with the snapshot of a customer who has
/// an active subscription and other entitlements. An empty page (stylesheet and script only) is the
/// floor every page pays.
struct ViewsBenchmark {
    var renders: Int
    var warmUp: Int

    struct Page {
        var name: String
        var p50: Double
        var p99: Double
        var bytes: Int
        /// References that make the browser fetch from another origin: must be 0.
        var externalRequests: [String]
        /// `<a href>` to another origin (policy links): navigations the customer chooses, not requests.
        var externalLinks: Int
    }

    func run(log: (String) -> Void) throws -> (pages: [Page], empty: Page) {
        var pages: [Page] = []
        // Pages of the embedded demo apps (the paywall page sells a catalog the store is given).
        for page in DemoStorePages.all where DemoCatalogs.all.contains(where: { $0.bundleID == page.bundleId }) {
            let store = try Self.snapshot(bundleId: page.bundleId)
            let figures = measure(page.id) {
                PageRenderer.render(page.make(), store: store, options: .init(title: page.title)).html
            }
            log(Self.describe(figures))
            pages.append(figures)
        }
        let emptyStore = StoreSnapshot(products: [])
        let empty = measure("(empty page)") { PageRenderer.render(EmptyView(), store: emptyStore).html }
        log(Self.describe(empty))
        return (pages, empty)
    }

    static func describe(_ page: Page) -> String {
        page.name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + String(format: " p50 %.3f ms, p99 %.3f ms, ", page.p50, page.p99) + kilobytes(page.bytes)
            + ", \(page.externalRequests.count) external request(s), \(page.externalLinks) link(s) out"
    }

    static func kilobytes(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1024) }

    /// Renders `warmUp` times untimed, then `renders` times timed one by one.
    func measure(_ name: String, _ render: () -> String) -> Page {
        var sink = 0
        for _ in 0..<warmUp { sink &+= render().utf8.count }
        var nanoseconds: [UInt64] = []
        nanoseconds.reserveCapacity(renders)
        var html = ""
        for _ in 0..<renders {
            let start = DispatchTime.now().uptimeNanoseconds
            html = render()
            nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
            sink &+= html.utf8.count
        }
        precondition(sink > 0)
        nanoseconds.sort()
        func percentile(_ q: Double) -> Double {
            Double(nanoseconds[min(nanoseconds.count - 1, Int(Double(nanoseconds.count) * q))]) / 1e6
        }
        let references = ExternalReferences(html)
        return Page(name: name, p50: percentile(0.5), p99: percentile(0.99), bytes: html.utf8.count,
                    externalRequests: references.requests, externalLinks: references.links)
    }

    /// The store as a returning customer sees it: Backyard Birds with the Family pass (trial used),
    /// Food Truck with Social Feed+ monthly, the sales history bought, and app version 8.1.
    static func snapshot(bundleId: String) throws -> StoreSnapshot {
        guard let json = DemoCatalogs.all.first(where: { $0.bundleID == bundleId })?.json else {
            throw BenchError("no demo catalog for \(bundleId)")
        }
        let catalog: Catalog
        do { catalog = try Catalog.decode(Data(json.utf8)) } catch { throw BenchError("demo catalog: \(error.faults)") }
        let products = Product.products(of: catalog, storefront: StoreModel.Storefront.unitedStates)
        let now = Date()
        let subscribed = bundleId == DemoCatalogs.backyardBirdsBundleID
            ? "com.example.backyardbirds.pass.family" : "com.example.foodtruck.socialfeedplus.monthly"
        let owned = bundleId == DemoCatalogs.backyardBirdsBundleID ? [subscribed] : [subscribed, "com.example.foodtruck.annualhistory"]
        func ms(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }
        func transaction(_ id: String) -> Transaction {
            let purchased = ms(now.addingTimeInterval(-10 * 86_400))
            return Transaction(payload: TransactionPayload(
                originalTransactionId: "2000000000000001", transactionId: "2000000000000002", bundleId: bundleId, productId: id,
                purchaseDate: purchased, originalPurchaseDate: purchased,
                expiresDate: id == subscribed ? ms(now.addingTimeInterval(20 * 86_400)) : nil,
                type: id == subscribed ? .autoRenewable : .nonConsumable, signedDate: ms(now), environment: .xcode,
                storefront: "USA", storefrontId: "143441", currency: "USD", price: 4990, appTransactionId: "705000000000000001"), jws: "")
        }
        guard let group = products.first(where: { $0.id == subscribed })?.subscription?.subscriptionGroupID else {
            throw BenchError("\(subscribed) is not in the catalog")
        }
        let status = Product.SubscriptionInfo.Status(
            state: .subscribed, transaction: .verified(transaction(subscribed)),
            renewalInfo: .verified(.init(payload: RenewalInfoPayload(
                originalTransactionId: "2000000000000001", autoRenewProductId: subscribed, productId: subscribed, autoRenewStatus: .on,
                signedDate: ms(now), environment: .xcode, renewalDate: ms(now.addingTimeInterval(20 * 86_400))), jws: "")))
        let privacy = catalog.appPolicies?.policies.first { !$0.url.isEmpty }?.url
        return StoreSnapshot(
            products: products, currentEntitlements: Dictionary(uniqueKeysWithValues: owned.map { ($0, .verified(transaction($0))) }),
            subscriptionStatuses: [group: [status]], introOfferEligibleGroups: [],
            appTransaction: AppTransaction(payload: AppTransactionPayload(
                receiptType: .xcode, appAppleId: nil, bundleId: bundleId, applicationVersion: "9.0", receiptCreationDate: ms(now),
                originalPurchaseDate: ms(now.addingTimeInterval(-400 * 86_400)), originalApplicationVersion: "8.1",
                appTransactionId: "705000000000000001"), jws: ""),
            termsOfServiceURL: "https://www.apple.com/legal/internet-services/itunes/dev/stdeula/", privacyPolicyURL: privacy,
            customer: "bench-customer", now: now)
    }
}

/// What in a page points outside it. A page is served from one origin, so any absolute or
/// protocol-relative URL is another origin. Requests: `src`, `srcset`, `poster`, `data`, `action`,
/// `formaction`, `<link href>`, CSS `url()` and `@import`. Links: `<a href>`.
struct ExternalReferences {
    var requests: [String] = []
    var links = 0

    init(_ html: String) {
        let tag = /<([a-zA-Z][a-zA-Z0-9]*)\b([^>]*)>/
        let attribute = /\s([a-zA-Z-]+)="([^"]*)"/
        for match in html.matches(of: tag) {
            let name = match.1.lowercased()
            for pair in match.2.matches(of: attribute) {
                let key = pair.1.lowercased(), value = String(pair.2)
                let urls: [String] = key == "srcset" ? value.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) } : [value]
                for url in urls where Self.isExternal(url) {
                    switch (name, key) {
                    case ("a", "href"), ("area", "href"): links += 1
                    case (_, "src"), (_, "srcset"), (_, "poster"), (_, "data"), (_, "action"), (_, "formaction"), ("link", "href"), (_, "href"):
                        requests.append("<\(name) \(key)=\(url)>")
                    default: break
                    }
                }
                if key == "style" { requests += Self.cssReferences(value) }
            }
        }
        for style in html.matches(of: /<style[^>]*>([\s\S]*?)<\/style>/) { requests += Self.cssReferences(String(style.1)) }
    }

    static func cssReferences(_ css: String) -> [String] {
        let decoded = css.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
        var found: [String] = []
        for match in decoded.matches(of: /url\(\s*['"]?([^'")\s]*)/) where isExternal(String(match.1)) { found.append("url(\(match.1))") }
        for match in decoded.matches(of: /@import\s+(?:url\()?\s*['"]?([^'")\s;]*)/) where isExternal(String(match.1)) {
            found.append("@import \(match.1)")
        }
        return found
    }

    static func isExternal(_ url: String) -> Bool {
        let lower = url.trimmingCharacters(in: .whitespaces).lowercased()
        return lower.hasPrefix("//") || lower.hasPrefix("http:") || lower.hasPrefix("https:") || lower.hasPrefix("ftp:")
            || lower.hasPrefix("ws:") || lower.hasPrefix("wss:")
    }
}
