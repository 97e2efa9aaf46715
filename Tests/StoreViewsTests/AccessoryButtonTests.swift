import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// Apple's automatic visibility of the accessory buttons (reference §1.8, §1.15): Close only when
/// presented, Restore and Redeem hidden, Sign In only with an action, policies from the catalog.
@Suite struct AccessoryButtonTests {
    let store = StoreSnapshot(products: Fixtures.birds, termsOfServiceURL: "https://example.com/terms",
                              privacyPolicyURL: "https://example.com/backyardbirds/privacy")
    var shop: StoreView<EmptyView, EmptyView> { StoreView(ids: [Fixtures.pellets, Fixtures.feastBundle]) }
    var pass: SubscriptionStoreView<AutomaticSubscriptionStoreMarketingContent> { SubscriptionStoreView(groupID: Fixtures.passGroup) }

    @Test func restoreIsHiddenByDefaultAndShownWhenVisible() {
        #expect(!html(shop, store).contains("Restore Purchases"))
        #expect(!html(pass, store).contains("Restore Purchases"))
        let visible = html(shop.storeButton(.visible, for: .restorePurchases), store)
        #expect(visible.contains("Restore Purchases"))
        #expect(visible.contains(#"name="action" value="restore""#))
        #expect(html(pass.storeButton(.visible, for: .restorePurchases), store).contains("Restore Purchases"))
    }

    @Test func redeemIsHiddenByDefault() {
        #expect(!html(pass, store).contains("Redeem Code"))
        let visible = html(pass.storeButton(.visible, for: .redeemCode), store)
        #expect(visible.contains("Redeem Code"))
        #expect(visible.contains(#"name="code""#))
        #expect(visible.contains(#"<label for="#), "the code field has a label")
    }

    @Test func cancellationOnlyWhenPresented() {
        #expect(!html(pass, store).contains("sk-close"))
        #expect(!html(shop, store).contains("sk-close"))
        #expect(html(pass.presented(), store).contains(#"aria-label="Close""#))
        #expect(html(shop.presented(), store).contains(#"value="dismiss""#))
        let sheet = PageRenderer.render(pass, store: store, options: .init(isPresented: true)).html
        #expect(sheet.contains("sk-close"), "isPresented of the page presents the store")
        #expect(!html(pass.storeButton(.hidden, for: .cancellation).presented(), store).contains("sk-close"))
        #expect(html(pass.storeButton(.visible, for: .cancellation), store).contains("sk-close"), "visible shows it unconditionally")
    }

    @Test func signInOnlyWithAnAction() throws {
        #expect(!html(pass, store).contains("Sign In"))
        #expect(!html(pass.storeButton(.visible, for: .signIn), store).contains("Sign In"), "no action, no button")
        let log = Log()
        let rendered = PageRenderer.render(pass.subscriptionStoreSignInAction { log.add("sign in") }, store: store)
        #expect(rendered.html.contains("Sign In"))
        let action = try #require(rendered.html.actionValue(ofButtonLabelled: "Sign In"))
        guard case .run(let run) = rendered.session.actions.resolve(action: action, selectedProduct: nil, code: nil) else {
            Issue.record("the sign-in button has no action")
            return
        }
        run()
        #expect(log.entries == ["sign in"])
        #expect(!html(pass.subscriptionStoreSignInAction { log.add("inner") }.storeButton(.hidden, for: .signIn), store).contains("Sign In"))
    }

    @Test func signInActionNilRemovesAnAncestorsAction() {
        let removed = pass.subscriptionStoreSignInAction(nil).subscriptionStoreSignInAction { }
        #expect(!html(removed, store).contains("Sign In"))
        let replaced = pass.subscriptionStoreSignInAction { }.subscriptionStoreSignInAction(nil)
        #expect(html(replaced, store).contains("Sign In"), "the descendant's action wins")
    }

    /// "Policy buttons are hidden by default"; made visible, on iOS and Mac "they appear above the
    /// subscription controls" (Meet StoreKit for SwiftUI, WWDC23).
    @Test func policiesAreHiddenByDefaultAndShownAboveTheControls() throws {
        #expect(!html(pass, store).contains("sk-policies"))
        let output = html(pass.storeButton(.visible, for: .policies), store)
        let policies = try #require(output.range(of: "sk-policies"))
        let controls = try #require(output.range(of: "class=\"sk-controls"), "\(output)")
        #expect(policies.lowerBound < controls.lowerBound)
    }

    @Test func policiesComeFromTheSnapshot() {
        let pass = self.pass.storeButton(.visible, for: .policies)
        let output = html(pass, store)
        #expect(output.contains(#"<a href="https://example.com/terms" class="sk-policy-terms">Terms of Service</a>"#))
        #expect(output.contains(#"<a href="https://example.com/backyardbirds/privacy" class="sk-policy-privacy">Privacy Policy</a>"#))
        #expect(!html(pass, StoreSnapshot(products: Fixtures.birds)).contains("sk-policies"), "nothing to link, no links")
        #expect(!html(self.pass.storeButton(.hidden, for: .policies).storeButton(.visible, for: .policies), store).contains("sk-policies"),
                "hidden inside wins over visible outside")
        #expect(!html(shop, store).contains("sk-policies"), "StoreView has no policy buttons")
    }

    @Test func policyDestinationOverridesTheSnapshot() {
        let pass = self.pass.storeButton(.visible, for: .policies)
        let output = html(pass
            .subscriptionStorePolicyDestination(url: "https://example.com/my-terms", for: .termsOfService)
            .subscriptionStorePolicyForegroundStyle(Color.white), store)
        #expect(output.contains(#"href="https://example.com/my-terms""#))
        #expect(!output.contains(#"href="https://example.com/terms""#))
        #expect(output.contains(#"href="https://example.com/backyardbirds/privacy""#), "the other policy keeps its default")
        #expect(output.contains(#"<nav class="sk-policies" aria-label="Policies" style="color:#fff">"#))
        let onlyOverride = html(pass.subscriptionStorePolicyDestination(url: "/privacy", for: .privacyPolicy), StoreSnapshot(products: Fixtures.birds))
        #expect(onlyOverride.contains(#"href="/privacy""#) && !onlyOverride.contains("Terms of Service"))
    }

    @Test func innerStoreButtonOverridesOuter() {
        let output = html(pass.storeButton(.hidden, for: .redeemCode).storeButton(.visible, for: .redeemCode, .restorePurchases), store)
        #expect(!output.contains("Redeem Code"))
        #expect(output.contains("Restore Purchases"))
    }
}
