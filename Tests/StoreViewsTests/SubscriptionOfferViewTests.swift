import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// iOS 26's `SubscriptionOfferView` and its styles (issue 16 item 11), after Apple's pages:
/// https://developer.apple.com/documentation/storekit/subscriptionofferview (initializers,
/// `visibleRelationship`), https://developer.apple.com/documentation/storekit/subscriptionofferviewstyle
/// (`.automatic`, `.compact`), https://developer.apple.com/documentation/storekit/subscriptionofferviewstyleconfiguration
/// (`activeOffer`, `visibleSubscription`, `subscriptions`, `subscriptionStatus`, `subscribe()`,
/// `displayDetails()`) and https://developer.apple.com/documentation/swiftui/view/subscriptionofferviewdetailaction(_:).
@Suite struct SubscriptionOfferViewTests {
    /// A custom style that shows what its configuration carries and subscribes from its own button.
    struct ReadingStyle: SubscriptionOfferViewStyle {
        func makeBody(configuration: Configuration) -> some View {
            VStack {
                Text("visible=\(configuration.visibleSubscription?.id ?? "nil")")
                Text("offer=\(configuration.activeOffer.map { "\($0.type.rawValue) \($0.id ?? "intro")" } ?? "nil")")
                Text("plans=\(configuration.subscriptions?.count ?? -1) group=\(configuration.subscriptionGroupDisplayName)")
                Text("statuses=\(configuration.subscriptionStatus.count)")
                Button("Mine") { configuration.subscribe() }
                SubscriptionOfferView(configuration)
            }
        }
    }

    @Test func aNewCustomerIsOfferedTheTopPlanWithItsIntroOffer() {
        let output = html(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .all))
        #expect(output.contains("data-product-id=\"\(Fixtures.premium)\""), "the group's top plan")
        #expect(output.contains("<p class=\"sk-plan-offer\">1 month free</p>"))
        #expect(output.contains(">Try It Free</button>"))
        #expect(output.contains("sk-offer-view-automatic") && output.contains("sk-offer-group"))
    }

    @Test func visibleRelationshipPicksThePlanRelativeToTheCurrentOne() {
        let individual = Fixtures.birdsSubscriber(Fixtures.individual)   // level 3
        #expect(html(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .upgrade), individual)
            .contains("data-product-id=\"\(Fixtures.family)\""), "the nearest level up")
        #expect(html(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .current), individual)
            .contains("data-product-id=\"\(Fixtures.individual)\""))
        let premium = Fixtures.birdsSubscriber(Fixtures.premium)        // level 1: nothing above
        #expect(html(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .upgrade), premium)
            .contains("No subscription to offer"))
    }

    @Test func aLapsedSubscriberIsOfferedTheWinBackOffer() {
        let output = html(SubscriptionOfferView(id: Fixtures.premium), WinBackOfferTests.lapsed([WinBackOfferTests.welcomeBack]))
        #expect(output.contains("data-offer-type=\"winBack\""))
        #expect(output.contains("$5.99 per month for 2 months") && output.contains(">Start Offer</button>"))
    }

    @Test func compactStyleAndACustomStyleThatReadsTheConfiguration() throws {
        let compact = html(SubscriptionOfferView(id: Fixtures.family).subscriptionOfferViewStyle(.compact))
        #expect(compact.contains("sk-offer-view-compact") && !compact.contains("sk-offer-group"))

        let page = PageRenderer.render(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .upgrade)
            .subscriptionOfferViewStyle(ReadingStyle()), store: Fixtures.birdsSubscriber(Fixtures.individual))
        #expect(page.html.contains("visible=\(Fixtures.family)") && page.html.contains("offer=nil"), "the intro offer is used up")
        #expect(page.html.contains("plans=3 group=Backyard Birds Pass") && page.html.contains("statuses=1"))
        #expect(page.html.contains("sk-offer-view-automatic"), "SubscriptionOfferView(configuration) draws the standard look inside")
        // "Mine" runs subscribe(): the purchase of the visible plan is requested.
        let mine = try #require(page.html.actionValue(ofButtonLabelled: "Mine"))
        guard case .run(let run) = page.session.actions.resolve(action: mine, selectedProduct: nil, code: nil) else {
            Issue.record("Mine is not a button action")
            return
        }
        run()
        #expect(page.session.requestedPurchases.map(\.productID) == [Fixtures.family])
    }

    @Test func theDetailLinkShowsOnlyWithAnActionAndCanBeHidden() throws {
        let log = Log()
        #expect(!html(SubscriptionOfferView(id: Fixtures.family)).contains("sk-offer-details"))
        let page = PageRenderer.render(SubscriptionOfferView(id: Fixtures.family).subscriptionOfferViewDetailAction { log.add("details") },
                                       store: StoreSnapshot(products: Fixtures.birds))
        let details = try #require(page.html.actionValue(ofButtonLabelled: "Details"))
        guard case .run(let run) = page.session.actions.resolve(action: details, selectedProduct: nil, code: nil) else {
            Issue.record("Details is not a button action")
            return
        }
        run()
        #expect(log.entries == ["details"])
        #expect(!html(SubscriptionOfferView(id: Fixtures.family).subscriptionOfferViewDetailAction { }
            .subscriptionOfferViewButtonVisibility(.hidden, for: .detailLink)).contains("sk-offer-details"))
    }

    /// Apple's initializers that take icons (https://developer.apple.com/documentation/storekit/subscriptionofferview,
    /// "Initializers": `init(id:prefersPromotionalIcon:icon:)`, `init(id:icon:placeholderIcon:)` with
    /// `(ProductIconPhase) -> Icon`, `init(_:prefersPromotionalIcon:icon:)`, `init(_:icon:)`,
    /// `init(groupID:visibleRelationship:useAppIcon:)`). Icons draw as inline SVG or text, never an emoji.
    @Test func iconInitializersDrawTheIconThePhaseAndThePlaceholder() throws {
        func symbol(_ phase: ProductIconPhase) -> String {
            switch phase {
            case .unavailable: "star.fill"
            case .loading: "xmark"
            case .success, .failure: "heart.fill"
            }
        }
        let plain = html(SubscriptionOfferView(id: Fixtures.family) { Image(systemName: "crown.fill") })
        #expect(plain.contains("<div class=\"sk-product-icon\"><svg class=\"sk-symbol\"") && plain.contains("data-symbol=\"crown.fill\""))
        let loading = html(SubscriptionOfferView(id: Fixtures.family) { Image(systemName: "crown.fill") }, phase: .loading)
        #expect(loading.contains("sk-placeholder-icon") && !loading.contains("crown.fill"), "StoreKit's placeholder while the product loads")

        // A catalog has no promotional images: once loaded, the phase is `.unavailable`.
        let phased = SubscriptionOfferView(id: Fixtures.family, icon: { phase in Image(systemName: symbol(phase)) },
                                           placeholderIcon: { Image(systemName: "bird.fill") })
        #expect(html(phased).contains("data-symbol=\"star.fill\""))
        #expect(html(phased, phase: .loading).contains("data-symbol=\"bird.fill\""))

        let product = try #require(Fixtures.birds.first { $0.id == Fixtures.family })
        #expect(html(SubscriptionOfferView(product) { Image(systemName: "leaf.fill") }).contains("data-symbol=\"leaf.fill\""))
        #expect(html(SubscriptionOfferView(product, icon: { phase in Image(systemName: symbol(phase)) })).contains("data-symbol=\"star.fill\""))
        #expect(html(SubscriptionOfferView(product)).contains("sk-placeholder-icon"), "init(_:prefersPromotionalIcon:) defaults to true")

        let app = html(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .all, useAppIcon: true))
        #expect(app.contains("<span class=\"sk-app-icon\" aria-hidden=\"true\">B</span>"), "the initial of Backyard Birds Pass")
        #expect(!html(SubscriptionOfferView(groupID: Fixtures.passGroup, visibleRelationship: .all, useAppIcon: false)).contains("sk-app-icon"))
    }
}
