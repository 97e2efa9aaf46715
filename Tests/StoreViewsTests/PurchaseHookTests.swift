import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// `onInAppPurchaseStart` / `onInAppPurchaseCompletion`: every store below the modifier uses the
/// hook, the innermost hook wins, and `nil` puts back the default (no hook in the intent).
@Suite struct PurchaseHookTests {
    let store = StoreSnapshot(products: Fixtures.birds)

    func intent(_ view: some View, product: String, selected: String? = nil) -> PurchaseIntent? {
        let rendered = PageRenderer.render(view, store: store)
        let action = selected == nil ? "purchase:\(product)" : "subscribe"
        guard case .purchase(let intent) = rendered.session.actions.resolve(action: action, selectedProduct: selected, code: nil) else {
            return nil
        }
        return intent
    }

    @Test func hooksReachEveryStoreBelow() async throws {
        let log = Log()
        let page = VStack {
            ProductView(id: Fixtures.pellets)
            StoreView(ids: [Fixtures.nectar])
            SubscriptionStoreView(groupID: Fixtures.passGroup)
        }
        .onInAppPurchaseStart { log.add("start \($0.id)") }
        .onInAppPurchaseCompletion { product, _ in log.add("done \(product.id)") }
        let product = Fixtures.birds[0]
        for (id, selected) in [(Fixtures.pellets, nil), (Fixtures.nectar, nil), (Fixtures.family, Fixtures.family)] {
            let hooks = try #require(intent(page, product: id, selected: selected), "\(id)")
            #expect(hooks.productID == id)
            await hooks.onStart?(product)
            await hooks.onCompletion?(product, .success(.userCancelled))
        }
        #expect(log.entries.count == 6)
    }

    /// "If you add multiple of these modifiers, all of your actions will be applied to each event"
    /// (Meet StoreKit for SwiftUI, WWDC23), for the start action; nil "remove[s] any actions
    /// ancestor views may have added" (SwiftUI reference, onInAppPurchaseStart(perform:)).
    @Test func everyStartActionRunsInnermostFirst() async throws {
        let log = Log()
        let page = VStack {
            ProductView(id: Fixtures.pellets)
                .onInAppPurchaseStart { _ in log.add("inner") }
                .onInAppPurchaseStart { _ in log.add("middle") }
        }
        .onInAppPurchaseStart { _ in log.add("outer") }
        let hooks = try #require(intent(page, product: Fixtures.pellets))
        await hooks.onStart?(Fixtures.birds[0])
        #expect(log.entries == ["inner", "middle", "outer"])

        let cut = ProductView(id: Fixtures.pellets)
            .onInAppPurchaseStart { _ in log.add("below nil") }
            .onInAppPurchaseStart(perform: nil)
            .onInAppPurchaseStart { _ in log.add("above nil") }
        let kept = try #require(intent(cut, product: Fixtures.pellets))
        await kept.onStart?(Fixtures.birds[0])
        #expect(log.entries.suffix(1) == ["below nil"], "nil removes the ancestors' actions")
    }

    /// "Only one action will be performed for each purchase. Descendant views can override the
    /// action" (SwiftUI reference, onInAppPurchaseCompletion(perform:)).
    @Test func innermostCompletionWins() async throws {
        let log = Log()
        let page = ProductView(id: Fixtures.pellets)
            .onInAppPurchaseCompletion { _, _ in log.add("inner") }
            .onInAppPurchaseCompletion { _, _ in log.add("outer") }
        let hooks = try #require(intent(page, product: Fixtures.pellets))
        await hooks.onCompletion?(Fixtures.birds[0], .success(.pending))
        #expect(log.entries == ["inner"], "only one completion action runs per purchase")
    }

    @Test func theSameProductShownTwiceUsesTheHooksWhereItWasPressed() async throws {
        let log = Log()
        let page = VStack {
            ProductView(id: Fixtures.pellets).onInAppPurchaseStart { _ in log.add("first") }
            ProductView(id: Fixtures.pellets).onInAppPurchaseStart { _ in log.add("second") }
        }
        let rendered = PageRenderer.render(page, store: store)
        #expect(rendered.html.contains("value=\"purchase:\(Fixtures.pellets)\""))
        #expect(rendered.html.contains("value=\"purchase:\(Fixtures.pellets)#2\""))
        for action in ["purchase:\(Fixtures.pellets)#2", "purchase:\(Fixtures.pellets)", "purchase:\(Fixtures.pellets)#9"] {
            guard case .purchase(let hooks) = rendered.session.actions.resolve(action: action, selectedProduct: nil, code: nil) else {
                Issue.record("\(action) doesn't resolve")
                continue
            }
            await hooks.onStart?(Fixtures.birds[0])
        }
        #expect(log.entries == ["second", "first", "first"], "an appearance that no longer exists falls back to the first")
    }

    @Test func twoPickersKeepTheirOwnHooks() async throws {
        let log = Log()
        let page = VStack {
            SubscriptionStoreView(groupID: Fixtures.passGroup).onInAppPurchaseStart { _ in log.add("top") }
            SubscriptionStoreView(groupID: Fixtures.passGroup).onInAppPurchaseStart { _ in log.add("bottom") }
        }
        let rendered = PageRenderer.render(page, store: store)
        for action in ["subscribe#2", "subscribe"] {
            guard case .purchase(let hooks) = rendered.session.actions.resolve(action: action, selectedProduct: Fixtures.family, code: nil) else {
                Issue.record("\(action) doesn't resolve")
                continue
            }
            await hooks.onStart?(Fixtures.birds[0])
        }
        #expect(log.entries == ["bottom", "top"])
    }

    @Test func nilRestoresTheDefault() throws {
        let page = ProductView(id: Fixtures.pellets)
            .onInAppPurchaseStart(perform: nil)
            .onInAppPurchaseCompletion(perform: nil)
            .onInAppPurchaseStart { _ in }
            .onInAppPurchaseCompletion { _, _ in }
        let hooks = try #require(intent(page, product: Fixtures.pellets))
        #expect(hooks.onStart == nil && hooks.onCompletion == nil)
        let untouched = try #require(intent(ProductView(id: Fixtures.pellets), product: Fixtures.pellets))
        #expect(untouched.onStart == nil && untouched.onCompletion == nil)
    }

    @Test func siblingsKeepTheirOwnHooks() async throws {
        let log = Log()
        let page = VStack {
            ProductView(id: Fixtures.pellets).onInAppPurchaseCompletion { _, _ in log.add("pellets") }
            ProductView(id: Fixtures.nectar).onInAppPurchaseCompletion { _, _ in log.add("nectar") }
        }
        try await #require(intent(page, product: Fixtures.nectar)).onCompletion?(Fixtures.birds[0], .success(.pending))
        try await #require(intent(page, product: Fixtures.pellets)).onCompletion?(Fixtures.birds[0], .success(.pending))
        #expect(log.entries == ["nectar", "pellets"])
    }

    @Test func subscribeNeedsAPlanThePageShows() {
        let page = SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .upgrade)
        let rendered = PageRenderer.render(page, store: Fixtures.birdsSubscriber(Fixtures.family))
        #expect(rendered.session.actions.resolve(action: "subscribe", selectedProduct: nil, code: nil) == nil)
        #expect(rendered.session.actions.resolve(action: "subscribe", selectedProduct: Fixtures.individual, code: nil) == nil,
                "a downgrade hidden by .upgrade can't be posted")
        guard case .purchase(let intent) = rendered.session.actions.resolve(action: "subscribe", selectedProduct: Fixtures.premium, code: nil) else {
            Issue.record("the upgrade isn't purchasable")
            return
        }
        #expect(intent.productID == Fixtures.premium)
    }

    @Test func accessoryActionsResolveOnlyWhenTheirButtonsShow() {
        let hidden = PageRenderer.render(SubscriptionStoreView(groupID: Fixtures.passGroup), store: store)
        #expect(hidden.session.actions.resolve(action: "redeem", selectedProduct: nil, code: "SPRING") == nil,
                "redeem is hidden by default, so it can't be posted")
        #expect(hidden.session.actions.resolve(action: "restore", selectedProduct: nil, code: nil) == nil)
        #expect(hidden.session.actions.resolve(action: "dismiss", selectedProduct: nil, code: nil) == nil, "not presented")
        let rendered = PageRenderer.render(
            SubscriptionStoreView(groupID: Fixtures.passGroup).storeButton(.visible, for: .redeemCode, .restorePurchases), store: store)
        guard case .redeemCode(let code) = rendered.session.actions.resolve(action: "redeem", selectedProduct: nil, code: "SPRING") else {
            Issue.record("redeem doesn't resolve")
            return
        }
        #expect(code == "SPRING")
        #expect(rendered.session.actions.resolve(action: "redeem", selectedProduct: nil, code: nil) == nil)
        if case .restorePurchases = rendered.session.actions.resolve(action: "restore", selectedProduct: nil, code: nil) {} else {
            Issue.record("restore doesn't resolve")
        }
        #expect(rendered.session.actions.resolve(action: "a999", selectedProduct: nil, code: nil) == nil, "unknown actions are refused")
    }
}
