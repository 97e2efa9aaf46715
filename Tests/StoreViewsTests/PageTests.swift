import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// Whole pages: state lifted out of store tasks as in the talk, loading states, backgrounds that
/// content hands up to its store, color schemes, and a document that fetches nothing.
@Suite struct PageTests {
    /// The talk's pattern: a store task writes `@State`, the page shows a spinner until products arrive.
    struct LiftedPage: View {
        let ids: [String]
        @State var products: [Product] = []
        @State var isLoading = true
        @State var failure: String?

        var body: some View {
            VStack {
                if isLoading {
                    ProgressView("Loading the shop…")
                } else if let failure {
                    Text("failed: \(failure)")
                } else {
                    ForEach(products, id: \.id) { ProductView($0).productViewStyle(.compact) }
                }
            }
            .storeProductsTask(for: ids) { state in
                switch state {
                case .loading: isLoading = true
                case .success(let loaded, _):
                    products = loaded
                    isLoading = false
                case .failure(let error):
                    failure = error.message
                    isLoading = false
                }
            }
        }
    }

    let birds = StoreSnapshot(products: Fixtures.birds)

    @Test func liftedStateShowsProductsOnceLoaded() {
        let page = PageRenderer.render(LiftedPage(ids: [Fixtures.pellets, Fixtures.nectar]), store: birds).html
        #expect(!page.contains("Loading the shop"))
        #expect(page.count(of: "<article class=\"sk-product sk-product-compact\"") == 2)
        #expect(page.offset(of: "Nutrition Pellets")! < page.offset(of: "Sweet Nectar")!)
    }

    @Test func liftedStateShowsASpinnerWhileLoading() {
        let page = PageRenderer.render(LiftedPage(ids: [Fixtures.pellets]), store: birds, options: .init(phase: .loading)).html
        #expect(page.contains("Loading the shop…") && page.contains(#"class="sk-progress" role="status""#))
        #expect(!page.contains("<article"))
    }

    @Test func liftedStateShowsAFailure() {
        var failing = birds
        failing.productsFailure = StoreViewError(code: "networkError", message: "offline")
        let page = PageRenderer.render(LiftedPage(ids: [Fixtures.pellets]), store: failing).html
        #expect(page.contains("failed: offline"))
    }

    @Test func statusAndEntitlementTasksReportTheSnapshot() {
        let log = Log()
        let subscriber = Fixtures.birdsSubscriber(Fixtures.family)
        let page = EmptyView()
            .subscriptionStatusTask(for: Fixtures.passGroup) { state in
                log.add("status \(state.value?.map(\.transaction.unsafePayloadValue.productID) ?? [])")
            }
            .currentEntitlementTask(for: Fixtures.family) { state in
                log.add("entitled \(state.transaction?.unsafePayloadValue.productID ?? "nil")")
            }
            .storeProductTask(for: Fixtures.pellets) { state in log.add("product \(state.product?.displayName ?? "nil")") }
        _ = PageRenderer.render(page, store: subscriber)
        #expect(log.entries == ["product Nutrition Pellets", "entitled \(Fixtures.family)", "status [\"\(Fixtures.family)\"]"])
        log.entries = []
        _ = PageRenderer.render(page, store: subscriber, options: .init(phase: .loading))
        #expect(log.entries == ["product nil", "entitled nil", "status []"])
    }

    @Test func subscriptionStoreLoadingShowsASpinnerInsteadOfPlans() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup), phase: .loading)
        #expect(output.contains("sk-progress") && !output.contains(#"type="radio""#))
    }

    // MARK: backgrounds

    @Test func fullHeightBackgroundFromMarketingContentReachesTheStore() throws {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup) {
            VStack {
                Text("Backyard Birds Pass").font(.largeTitle)
            }
            .containerBackground(for: .subscriptionStoreFullHeight) { Text("SKY") }
        }
        .backgroundStyle(.clear))
        #expect(output.hasPrefix(#"<section class="sk-subscription-store sk-has-full-background""#))
        let sky = try #require(output.offset(of: #"<div class="sk-full-background" aria-hidden="true">SKY</div>"#))
        let marketing = try #require(output.offset(of: "Backyard Birds Pass"))
        #expect(sky < marketing, "the background is drawn behind, before the content")
        #expect(output.count(of: "SKY") == 1, "the background isn't drawn inside the marketing content")
        #expect(output.contains(#"<div class="sk-store-controls" style="background:transparent">"#))
    }

    @Test func headerAndStyleBackgrounds() {
        let header = html(SubscriptionStoreView(groupID: Fixtures.passGroup) {
            Text("Hi").containerBackground(Color.blue, for: .subscriptionStoreHeader)
        })
        #expect(header.contains(#"<header class="sk-marketing" style="background:var(--sk-blue)">"#))
        #expect(!header.contains("sk-has-full-background"))
        let automatic = html(SubscriptionStoreView(groupID: Fixtures.passGroup) {
            Text("Hi").containerBackground(LinearGradient(colors: [.blue, .white], startPoint: .top, endPoint: .bottom), for: .subscriptionStore)
        })
        #expect(automatic.contains(#"style="background:linear-gradient(180deg, var(--sk-blue), #fff)""#))
    }

    @Test func containerBackgroundOutsideAStoreIsIgnored() {
        let output = html(Text("Hi").containerBackground(for: .subscriptionStoreFullHeight) { Text("SKY") })
        #expect(output == "Hi")
    }

    @Test func pickerItemBackgroundAndControlIcon() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup)
            .subscriptionStorePickerItemBackground(.thinMaterial)
            .subscriptionStoreControlIcon { _, info in Text("level \(info.groupLevel)") })
        #expect(output.count(of: #"style="background:var(--sk-material-thin)""#) == 3)
        #expect(output.contains("level 1") && output.contains("level 3"))
    }

    // MARK: the document

    @Test(arguments: [PageRenderer.ColorScheme.automatic, .light, .dark])
    func colorSchemeAttributes(_ scheme: PageRenderer.ColorScheme) {
        let page = PageRenderer.render(EmptyView(), store: birds, options: .init(language: "fr", colorScheme: scheme)).html
        switch scheme {
        case .automatic:
            #expect(page.contains(#"<html lang="fr">"#))
            #expect(page.contains(#"<meta name="color-scheme" content="light dark">"#))
        case .light, .dark:
            #expect(page.contains(#"<html lang="fr" data-color-scheme="\#(scheme.rawValue)">"#))
            #expect(page.contains(#"<meta name="color-scheme" content="\#(scheme.rawValue)">"#))
        }
        #expect(Stylesheet.css.contains("@media (prefers-color-scheme:dark)"))
        #expect(Stylesheet.css.contains(":root[data-color-scheme=dark]"))
    }

    static let pages: [(String, StoreSnapshot)] = [
        ("birds", StoreSnapshot(products: Fixtures.birds, termsOfServiceURL: "https://example.com/terms", privacyPolicyURL: "https://example.com/privacy")),
        ("birds-subscriber", Fixtures.birdsSubscriber(Fixtures.family)),
        ("food-truck", StoreSnapshot(products: Fixtures.foodTruck)),
    ]

    @Test(arguments: [RenderPhase.loaded, .loading])
    func catalogPreviewFetchesNothing(_ phase: RenderPhase) {
        for (name, store) in Self.pages {
            let page = PageRenderer.render(CatalogPreview(products: store.products), store: store, options: .init(phase: phase)).html
            #expect(page.hasPrefix("<!DOCTYPE html>"), "\(name)")
            #expect(page.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none';"#), "\(name)")
            #expect(page.firstMatch(of: /\s(src|srcset|poster|data)="(?!data:)[^"]+"/) == nil, "\(name): a resource from elsewhere")
            #expect(page.firstMatch(of: /url\(\s*['"]?(?!data:)/) == nil, "\(name): a CSS url()")
            #expect(!page.contains("<link") && !page.contains("@import"), "\(name)")
            #expect(Set(page.values(of: "action")) == ["actions"], "\(name): forms post to the page's action URL only")
            #expect(page.utf8.count < 400_000, "\(name): \(page.utf8.count) bytes")
        }
    }

    @Test func actionURLIsWhatTheServerSays() {
        let page = PageRenderer.render(ProductView(id: Fixtures.pellets), store: birds, options: .init(actionURL: "/store/birds/actions?customer=a&b")).html
        #expect(page.contains(#"action="/store/birds/actions?customer=a&amp;b""#))
    }

    @Test func noticeIsAnnounced() {
        let ok = PageRenderer.render(EmptyView(), store: birds, options: .init(notice: .init("Purchased Nutrition Pellets."))).html
        #expect(ok.contains(#"<div class="sk-notice-region" role="status" aria-live="polite"><p class="sk-notice">Purchased Nutrition Pellets.</p>"#))
        let failed = PageRenderer.render(EmptyView(), store: birds, options: .init(notice: .init("Payment declined.", isError: true))).html
        #expect(failed.contains(#"<p class="sk-notice sk-notice-error" role="alert">Payment declined.</p>"#))
    }

    @Test func idsAreUniqueInADocument() {
        let page = PageRenderer.render(CatalogPreview(products: Fixtures.birds), store: birds).html
        let ids = page.values(of: "id")
        #expect(Set(ids).count == ids.count)
        for reference in page.values(of: "aria-labelledby") + page.values(of: "for") {
            #expect(ids.contains(reference), "\(reference) points nowhere")
        }
    }
}
