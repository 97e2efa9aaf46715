import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// ProductView and StoreView: the task states a customer sees, the built-in styles, and custom
/// styles that read the configuration, wrap the standard look and buy from their own buttons.
@Suite struct ProductViewTests {
    @Test func loadedProductShowsNameDescriptionAndABuyButton() {
        let output = html(ProductView(id: Fixtures.pellets))
        #expect(output.contains(#"data-state="success""#))
        #expect(output.contains("Nutrition Pellets") && output.contains("A handful of pellets"))
        #expect(output.contains(#"value="purchase:com.example.backyardbirds.pellets""#))
        #expect(output.contains(#"aria-label="Buy Nutrition Pellets for $0.99""#))
    }

    @Test func loadingPhaseShowsAPlaceholderNotTheProduct() {
        let output = html(ProductView(id: Fixtures.pellets), phase: .loading)
        #expect(output.contains(#"data-state="loading""#) && output.contains(#"aria-busy="true""#))
        #expect(!output.contains("Nutrition Pellets") && !output.contains("purchase:"))
        #expect(!output.contains("sk-placeholder-icon"), "no icon asked for, no placeholder icon")
        #expect(html(ProductView(id: Fixtures.pellets, prefersPromotionalIcon: true), phase: .loading).contains("sk-placeholder-icon"))
        #expect(html(ProductView(id: Fixtures.pellets) { Image(systemName: "leaf") }, phase: .loading).contains("sk-placeholder-icon"))
        #expect(html(ProductView(Fixtures.birds[0]), phase: .loading).contains(#"data-state="success""#),
                "a product passed in is already loaded")
    }

    @Test func unavailableAndFailureStates() {
        let unavailable = html(ProductView(id: "com.example.not-sold-here"))
        #expect(unavailable.contains(#"data-state="unavailable""#) && !unavailable.contains("purchase:"))
        var failing = StoreSnapshot(products: Fixtures.birds)
        failing.productsFailure = StoreViewError(code: "networkError", message: "The network is offline.")
        let failure = html(ProductView(id: Fixtures.pellets), failing)
        #expect(failure.contains(#"data-state="failure""#) && failure.contains(#"role="alert""#))
        #expect(failure.contains("The network is offline.") && failure.contains("Try Again"))
    }

    @Test func ownedNonConsumableShowsPurchasedInsteadOfBuy() {
        let truck = Fixtures.foodTruck
        let owned = StoreSnapshot(products: truck, currentEntitlements: [Fixtures.annualHistory: .verified(Fixtures.transaction(Fixtures.annualHistory))])
        let output = html(ProductView(id: Fixtures.annualHistory), owned)
        #expect(output.contains("✓ Purchased") && output.contains(#"data-owned="true""#))
        #expect(!output.contains("purchase:"))
        let consumable = StoreSnapshot(products: Fixtures.birds, currentEntitlements: [Fixtures.pellets: .verified(Fixtures.transaction(Fixtures.pellets))])
        #expect(html(ProductView(id: Fixtures.pellets), consumable).contains("purchase:"), "consumables can be bought again")
    }

    @Test(arguments: [("automatic", "regular"), ("compact", "compact"), ("regular", "regular"), ("large", "large")])
    func standardStyles(_ name: String, _ kind: String) {
        let styles: [String: StandardProductViewStyle] = ["automatic": .automatic, "compact": .compact, "regular": .regular, "large": .large]
        let output = html(ProductView(id: Fixtures.pellets).productViewStyle(styles[name]!))
        #expect(output.contains("sk-product-\(kind)"))
        #expect(output.contains("A handful of pellets") == (kind != "compact"), "compact hides the description automatically")
    }

    @Test func descriptionVisibilityOverridesTheStyle() {
        #expect(html(ProductView(id: Fixtures.pellets).productViewStyle(.compact).productDescription(.visible)).contains("A handful"))
        #expect(!html(ProductView(id: Fixtures.pellets).productDescription(.hidden)).contains("A handful"))
    }

    @Test func iconsAndBorder() {
        let output = html(ProductView(id: Fixtures.pellets) { Image(systemName: "leaf.fill") }.productIconBorder())
        #expect(output.contains("sk-product-icon sk-icon-border"))
        #expect(output.contains("<svg class=\"sk-symbol\" aria-hidden=\"true\" focusable=\"false\" data-symbol=\"leaf.fill\" viewBox=\"0 0 24 24\""),
                "the symbol is drawn as inline SVG, not as an emoji")
        #expect(!output.contains("🍃"))
        #expect(!html(ProductView(id: Fixtures.pellets)).contains("sk-product-icon"), "no icon by default")
    }

    /// WWDC23 "Meet StoreKit for SwiftUI" places `productIconBorder()` on the icon view inside the
    /// product view's icon closure; Apple's page: "Adds a standard border to an in-app purchase
    /// product's icon". Placed there it borders that icon, once, and nothing else.
    @Test func aBorderOnTheIconViewItselfBordersTheIcon() {
        let onIcon = html(ProductView(id: Fixtures.pellets) { Image(systemName: "leaf.fill").productIconBorder() })
        #expect(onIcon.contains("<div class=\"sk-product-icon\"><span class=\"sk-icon-border sk-icon-fill\"><svg class=\"sk-symbol\""))
        let both = html(ProductView(id: Fixtures.pellets) { Image(systemName: "leaf.fill").productIconBorder() }.productIconBorder())
        #expect(both.components(separatedBy: "sk-icon-border").count == 2, "bordered once when both places ask")
        let outside = html(VStack { Image(systemName: "leaf.fill").productIconBorder() })
        #expect(!outside.contains("sk-icon-border"), "outside a product's icon slot it draws nothing")
    }

    @Test func storeViewListsEveryIDInOrder() {
        let ids = [Fixtures.feastBundle, Fixtures.pellets, "not-in-catalog"]
        let output = html(StoreView(ids: ids))
        #expect(output.values(of: "data-product-id") == [Fixtures.feastBundle, Fixtures.pellets])
        #expect(output.count(of: "<li class=\"sk-store-cell\">") == 3)
        #expect(output.contains(#"data-state="unavailable""#))
        let loading = html(StoreView(ids: ids) { _ in Image(systemName: "bird") }, phase: .loading)
        #expect(loading.count(of: #"data-state="loading""#) == 3 && loading.count(of: "sk-placeholder-icon") == 3)
    }

    @Test func styleAppliesToEveryProductOfAStoreView() {
        let output = html(StoreView(products: Fixtures.birds.prefix(3)).productViewStyle(.compact))
        #expect(output.count(of: "sk-product-compact") == 3)
    }

    // MARK: custom styles

    /// Shows what it was given, wraps the standard look, and adds a button that buys.
    struct SpyStyle: ProductViewStyle {
        func makeBody(configuration: Configuration) -> some View {
            VStack {
                Text("state=\(Self.name(configuration.state)) product=\(configuration.product?.id ?? "none") owned=\(configuration.hasCurrentEntitlement)")
                ProductView(configuration)
                Button("Get it now") { configuration.purchase() }
            }
        }

        static func name(_ state: Product.TaskState) -> String {
            switch state {
            case .loading: "loading"
            case .success: "success"
            case .unavailable: "unavailable"
            case .failure: "failure"
            }
        }
    }

    @Test func customStyleSeesStateProductAndEntitlement() {
        let owned = StoreSnapshot(products: Fixtures.foodTruck, currentEntitlements: [Fixtures.annualHistory: .verified(Fixtures.transaction(Fixtures.annualHistory))])
        #expect(html(ProductView(id: Fixtures.annualHistory).productViewStyle(SpyStyle()), owned)
            .contains("state=success product=\(Fixtures.annualHistory) owned=true"))
        #expect(html(ProductView(id: Fixtures.pellets).productViewStyle(SpyStyle()))
            .contains("state=success product=\(Fixtures.pellets) owned=false"))
        #expect(html(ProductView(id: Fixtures.pellets).productViewStyle(SpyStyle()), phase: .loading)
            .contains("state=loading product=none owned=false"))
        #expect(html(ProductView(id: "nope").productViewStyle(SpyStyle())).contains("state=unavailable product=none"))
    }

    @Test func customStyleWrapsTheStandardLook() {
        let output = html(ProductView(id: Fixtures.pellets).productViewStyle(SpyStyle()))
        #expect(output.count(of: "<article") == 1, "the standard look once, not the custom style again")
        #expect(output.contains("sk-product-regular"))
        let large = html(ProductView(id: Fixtures.pellets).productViewStyle(SpyStyle()).productViewStyle(.large))
        #expect(large.contains("state=success"), "the innermost style wins")
    }

    @Test func purchaseFromACustomButtonIsRequestedWhenItsActionRuns() throws {
        let rendered = PageRenderer.render(ProductView(id: Fixtures.feastBundle).productViewStyle(SpyStyle()),
                                           store: StoreSnapshot(products: Fixtures.birds))
        #expect(rendered.session.requestedPurchases.isEmpty, "rendering buys nothing")
        let action = try #require(rendered.html.actionValue(ofButtonLabelled: "Get it now"))
        guard case .run(let run) = rendered.session.actions.resolve(action: action, selectedProduct: nil, code: nil) else {
            Issue.record("the button's action isn't registered")
            return
        }
        run()
        #expect(rendered.session.requestedPurchases.map(\.productID) == [Fixtures.feastBundle])
    }

    @Test func purchaseDoesNothingWithoutAProduct() throws {
        let rendered = PageRenderer.render(ProductView(id: "nope").productViewStyle(SpyStyle()), store: StoreSnapshot(products: Fixtures.birds))
        let action = try #require(rendered.html.actionValue(ofButtonLabelled: "Get it now"))
        if case .run(let run) = rendered.session.actions.resolve(action: action, selectedProduct: nil, code: nil) { run() }
        #expect(rendered.session.requestedPurchases.isEmpty)
    }

    @Test func standardBuyButtonResolvesToAPurchase() throws {
        let rendered = PageRenderer.render(StoreView(ids: [Fixtures.pellets, Fixtures.nectar]), store: StoreSnapshot(products: Fixtures.birds))
        guard case .purchase(let intent) = rendered.session.actions.resolve(action: "purchase:\(Fixtures.nectar)", selectedProduct: nil, code: nil) else {
            Issue.record("no purchase registered for the nectar")
            return
        }
        #expect(intent.productID == Fixtures.nectar)
        #expect(rendered.session.actions.resolve(action: "purchase:com.example.other", selectedProduct: nil, code: nil) == nil,
                "a product the page doesn't show can't be bought from it")
    }
}

extension Fixtures {
    static let nectar = "com.example.backyardbirds.nectar"
}
