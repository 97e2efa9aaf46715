import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// Win-back offers in `SubscriptionStoreView` and `preferredSubscriptionOffer(_:)` (issue 16 item 11).
/// Sources: https://developer.apple.com/documentation/storekit/merchandising-win-back-offers-in-your-app
/// ("StoreKit views automatically support displaying pricing details in the SubscriptionStoreView
/// for all subscription offers"), https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/eligiblewinbackofferids
/// ("sorted with the best offers first") and https://developer.apple.com/documentation/swiftui/view/preferredsubscriptionoffer(_:)
/// ("If your offer closure returns nil, the system selects the introductory offer, if it exists,
/// and if the customer is eligible for it").
@Suite struct WinBackOfferTests {
    static let welcomeBack = "com.example.backyardbirds.pass.premium.welcomeback"

    /// A customer whose Premium pass lapsed; the App Store lists `eligible` in the renewal info.
    static func lapsed(_ eligible: [String], state: Product.SubscriptionInfo.RenewalState = .expired) -> StoreSnapshot {
        let expired = Fixtures.now.addingTimeInterval(-86_400)
        let status = Product.SubscriptionInfo.Status(
            state: state, transaction: .verified(Fixtures.transaction(Fixtures.premium, expires: expired)),
            renewalInfo: .verified(Fixtures.renewalInfo(Fixtures.premium, willAutoRenew: false, preference: Fixtures.premium,
                                                        renewalDate: nil) { $0.eligibleWinBackOfferIds = eligible }))
        return StoreSnapshot(products: Fixtures.birds, subscriptionStatuses: [Fixtures.passGroup: [status]],
                             introOfferEligibleGroups: [], customer: "wren", now: Fixtures.now)
    }

    static func offers(_ html: String) -> [String] {
        html.matches(of: /data-product-id="([^"]*)"(?:(?!<\/label>)[\s\S])*?<span class="sk-plan-offer" data-offer-type="winBack">([^<]*)</)
            .map { "\($0.1): \($0.2)" }
    }

    @Test func theStoreShowsTheBestEligibleWinBackOffer() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup), Self.lapsed([Self.welcomeBack]))
        #expect(Self.offers(output) == ["\(Fixtures.premium): $5.99 per month for 2 months"])
        #expect(output.contains("Start Offer"))
        #expect(output.contains("$5.99 per month for 2 months, then $"), "the offer's terms, then the plan's price")
    }

    @Test func noWinBackOfferWithoutEligibilityOrDuringGracePeriod() {
        #expect(Self.offers(html(SubscriptionStoreView(groupID: Fixtures.passGroup), Self.lapsed([]))).isEmpty)
        // The App Store never lists win-back offers in grace or billing retry (the renewal info is empty).
        let grace = html(SubscriptionStoreView(groupID: Fixtures.passGroup), Self.lapsed([], state: .inGracePeriod))
        #expect(!grace.contains("data-offer-type"))
        // An ID the catalog doesn't have for this product shows nothing.
        #expect(Self.offers(html(SubscriptionStoreView(groupID: Fixtures.passGroup), Self.lapsed(["unknown"]))).isEmpty)
    }

    @Test func preferredSubscriptionOfferChoosesAmongEligibleOffersAndNilFallsBackToTheIntroOffer() {
        let seen = Log()
        let declined = html(SubscriptionStoreView(groupID: Fixtures.passGroup).preferredSubscriptionOffer { product, _, eligible in
            seen.add("\(product.id): \(eligible.map { $0.id ?? "intro" })")
            return nil
        }, Self.lapsed([Self.welcomeBack]))
        #expect(seen.entries.contains("\(Fixtures.premium): [\"\(Self.welcomeBack)\"]"), "the win-back offer is among the eligible offers")
        #expect(seen.entries.contains("\(Fixtures.family): []"))
        #expect(Self.offers(declined).isEmpty, "nil: the intro offer, and this customer has used it")

        let chosen = html(SubscriptionStoreView(groupID: Fixtures.passGroup).preferredSubscriptionOffer { _, _, eligible in
            eligible.first { $0.type == .winBack }
        }, Self.lapsed([Self.welcomeBack]))
        #expect(Self.offers(chosen) == ["\(Fixtures.premium): $5.99 per month for 2 months"])
    }

    @Test func theButtonsStyleAppliesTheOfferToItsPurchase() throws {
        let store = Self.lapsed([Self.welcomeBack])
        let page = PageRenderer.render(SubscriptionStoreView(groupID: Fixtures.passGroup).subscriptionStoreControlStyle(.buttons), store: store)
        let intent = try #require(page.session.actions.purchases["purchase:\(Fixtures.premium)"])
        #expect(intent.offer?.type == .winBack && intent.offer?.id == Self.welcomeBack, "the purchase asks for the offer it showed")
        #expect(page.session.actions.purchases["purchase:\(Fixtures.family)"]?.offer == nil)
    }
}
