import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews
import StoreShared

/// Catalog texts are data, never markup: a hostile name renders as text in every view, in text and
/// in attributes, and links can't carry script.
@Suite struct EscapingTests {
    static let script = #"<script>alert("x")</script>"#
    static let breakout = #"x" onmouseover="alert(1)"><img src=x onerror=alert(2)>"#

    static func hostileProducts() -> [Product] {
        func sub(_ id: String, level: Int, period: Product.SubscriptionPeriod) -> Product {
            Product(id: id, type: .autoRenewable, displayName: script + " " + id, description: breakout,
                    price: 9.99, displayPrice: "$9.99",
                    subscription: .init(subscriptionGroupID: "g\"<g>", groupLevel: level, groupDisplayName: script,
                                         subscriptionPeriod: period,
                                         introductoryOffer: .init(id: breakout, type: .introductory, price: 0, displayPrice: "$0.00",
                                                                  period: .weekly, periodCount: 1, paymentMode: .freeTrial)),
                    currencyCode: "USD", priceLocaleIdentifier: "en_US")
        }
        return [
            Product(id: #"item"><script>alert(3)</script>"#, type: .nonConsumable, displayName: script, description: breakout,
                    price: 1.99, displayPrice: "$1.99", currencyCode: "USD", priceLocaleIdentifier: "en_US"),
            sub(#"plan'1"#, level: 1, period: .yearly),
            sub(#"plan"2"#, level: 2, period: .monthly),
        ]
    }

    static let store = StoreSnapshot(products: hostileProducts(), productsFailure: nil,
                                      termsOfServiceURL: "javascript:alert(4)", privacyPolicyURL: " JaVaScRiPt:alert(5)")

    /// No hostile text survives as markup: no script element, no injected tag, no injected handler.
    static func expectInert(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!html.contains("<script"), sourceLocation: sourceLocation)
        #expect(!html.contains("<img"), sourceLocation: sourceLocation)
        #expect(html.firstMatch(of: /<[^>]*\son[a-z]+=/) == nil, "an event handler inside a tag", sourceLocation: sourceLocation)
        #expect(!html.contains("javascript:"), sourceLocation: sourceLocation)
        #expect(!html.lowercased().contains("href=\" javascript"), sourceLocation: sourceLocation)
    }

    @Test(arguments: ["automatic", "compact", "regular", "large"])
    func productViewInEveryStyle(_ style: String) {
        let styles: [String: StandardProductViewStyle] = ["automatic": .automatic, "compact": .compact, "regular": .regular, "large": .large]
        let products = Self.hostileProducts()
        let output = html(VStack {
            ForEach(products, id: \.id) { ProductView($0) }
            ProductView(id: products[0].id)
        }.productViewStyle(styles[style]!), Self.store)
        Self.expectInert(output)
        #expect(output.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt;"), "names are shown, as text")
        #expect(output.contains(#"data-product-id="item&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;""#))
    }

    @Test func storeViewByIDsAndByProducts() {
        let products = Self.hostileProducts()
        for output in [html(StoreView(ids: products.map(\.id)), Self.store),
                       html(StoreView(products: products) { _ in Image(systemName: "star") }, Self.store)] {
            // First, the hostile texts are on the page (an empty page would be inert too), as text.
            #expect(output.count(of: "data-product-id=") >= 3, "every product is shown")
            #expect(output.contains("&lt;script&gt;alert(\"x\")&lt;/script&gt;"), "names are shown, as text")
            #expect(output.contains(#"data-product-id="item&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;""#))
            #expect(output.contains(#"data-product-id="plan&quot;2""#) && output.contains(#"data-product-id="plan&#39;1""#))
            Self.expectInert(output)
        }
    }

    @Test(arguments: StandardSubscriptionStoreControlStyle.Kind.allCases)
    func subscriptionStoreInEveryControlStyle(_ kind: StandardSubscriptionStoreControlStyle.Kind) {
        let output = html(SubscriptionStoreView(groupID: "g\"<g>")
            .subscriptionStoreControlStyle(StandardSubscriptionStoreControlStyle(kind: kind))
            .subscriptionStoreButtonLabel(.multiline.displayName.price)
            .storeButton(.visible, for: .redeemCode, .restorePurchases, .cancellation)
            .subscriptionStoreSignInAction {}, Self.store)
        Self.expectInert(output)
        #expect(output.contains(#"data-group-id="g&quot;&lt;g&gt;""#))
        #expect(output.contains("&lt;script&gt;"))
    }

    @Test func currentPlanAndMarketingContent() {
        var store = Self.store
        let current = Self.hostileProducts()[2].id
        store.subscriptionStatuses["g\"<g>"] = [Fixtures.status(current)]
        for kind in [StandardSubscriptionStoreControlStyle.Kind.picker, .buttons] {
            let output = html(SubscriptionStoreView(productIDs: Self.hostileProducts().dropFirst().map(\.id)) {
                Text(Self.script)
                Text(verbatim: Self.breakout)
            }.subscriptionStoreControlStyle(StandardSubscriptionStoreControlStyle(kind: kind)), store)
            Self.expectInert(output)
            #expect(output.contains("Current Plan"))
        }
    }

    @Test func loadFailureMessage() {
        var store = Self.store
        store.productsFailure = StoreViewError(code: "networkError", message: Self.script)
        let output = html(VStack {
            ProductView(id: "x")
            SubscriptionStoreView(groupID: "g")
        }, store)
        Self.expectInert(output)
        #expect(output.count(of: "&lt;script&gt;") == 2)
    }

    @Test func pageTitleNoticeAndHeader() {
        let rendered = PageRenderer.render(Text(Self.script), store: Self.store, options: .init(
            title: Self.script, language: #"en" onload="x"#, notice: .init(Self.breakout, isError: true),
            header: AnyView(Text(Self.breakout))))
        // The page's own inline script is the only script element.
        #expect(rendered.html.count(of: "<script") == 1)
        #expect(!rendered.html.contains("<img"))
        #expect(rendered.html.contains(#"<html lang="en&quot; onload=&quot;x""#))
        #expect(rendered.html.contains("<title>&lt;script&gt;alert(\"x\")&lt;/script&gt;</title>"))
    }

    @Test(arguments: ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "\tjavascript:alert(1)",
                      "data:text/html,<script>alert(1)</script>", "vbscript:x", "java\u{0}script:alert(1)"])
    func linkNeutralisesScriptURLs(_ url: String) {
        let output = html(Link("Open", destination: url))
        #expect(output.contains(##"href="#""##), "\(url) kept: \(output)")
    }

    /// The expected attribute text is written out by hand, not computed with the escaper under test.
    @Test(arguments: [
        ("https://example.com/a?b=1&c=\"2\"", "https://example.com/a?b=1&amp;c=&quot;2&quot;"),
        ("http://example.com", "http://example.com"), ("mailto:help@example.com", "mailto:help@example.com"),
        ("/terms", "/terms"), ("#top", "#top"), ("?page=2", "?page=2"), ("/a'b<c>", "/a&#39;b&lt;c&gt;"),
    ])
    func linkKeepsWebAddresses(_ url: String, _ attribute: String) {
        let output = html(Link("Open", destination: url))
        #expect(output.contains("href=\"\(attribute)\""), "\(output)")
    }

    @Test
    func linkKeepsRelativeAddresses() {
        for url in ["terms.html", "./terms", "../store/terms", "terms?x=1"] {
            #expect(html(Link("Open", destination: url)).contains("href=\"\(url)\""), "\(url)")
        }
    }

    @Test func policyLinksFromTheCatalogAndModifiersAreNeutralised() {
        // Policy buttons are hidden unless asked for (WWDC23); shown, both links are neutralised.
        let fromSnapshot = html(SubscriptionStoreView(groupID: "g\"<g>").storeButton(.visible, for: .policies), Self.store)
        #expect(fromSnapshot.count(of: ##"href="#""##) == 2)
        let overridden = html(SubscriptionStoreView(groupID: "g\"<g>").storeButton(.visible, for: .policies)
            .subscriptionStorePolicyDestination(url: "javascript:alert(6)", for: .privacyPolicy), Self.store)
        #expect(overridden.count(of: ##"href="#""##) == 2, "the overriding javascript: link is shown, neutralised")
        Self.expectInert(overridden)
    }

    @Test func escapeHandlesEveryMarkupCharacter() {
        #expect(HTMLWriter.escape(#"<a href='x'>"&"</a>"#, attribute: true) == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;")
        #expect(HTMLWriter.escape(#"<"'&>"#, attribute: false) == #"&lt;"'&amp;&gt;"#)
        #expect(HTMLWriter.escape("plain ünïcödé 🐦", attribute: true) == "plain ünïcödé 🐦")
    }

    @Test func elementDropsEventHandlersAndOddTags() {
        let output = html(Element("img onerror=alert(1)", attributes: [("onclick", "alert(1)"), ("ONLOAD", "x"), ("data-x", "\"><b>")]) {
            Text("hi")
        })
        #expect(output.hasPrefix("<div"))
        #expect(!output.lowercased().contains("onclick") && !output.lowercased().contains("onload"))
        #expect(output.contains(#"data-x="&quot;&gt;&lt;b&gt;""#))
    }

    @Test func imagesAreEmbeddedOnly() {
        #expect(!html(Image(dataURL: "https://tracker.example/pixel.gif", label: "x")).contains("tracker"))
        #expect(!html(Image(dataURL: "javascript:alert(1)", label: "x")).contains("javascript"))
        #expect(html(Image(dataURL: "data:image/png;base64,AAAA", label: "\"><b>")).contains(#"alt="&quot;&gt;&lt;b&gt;""#))
    }

    @Test func cssClassKeepsOnlyNameCharacters() {
        let output = html(Text("x").cssClass(#"hero" onclick="alert(1)"#))
        #expect(!output.contains("onclick=\""))
        #expect(output.contains(#"class="hero onclickalert1""#))
    }

    @Test
    func elementRefusesScriptContexts() {
        let description = "alert(document.cookie)"
        let script = html(Element("script") { Text(description) })
        #expect(!script.contains("<script"))
        let frame = html(Element("iframe", attributes: [("srcdoc", "<script>alert(1)</script>")]) { EmptyView() })
        #expect(!frame.contains("srcdoc"))
        let link = html(Element("a", attributes: [("href", "javascript:alert(1)")]) { Text("x") })
        #expect(!link.contains("javascript:"))
    }
}
