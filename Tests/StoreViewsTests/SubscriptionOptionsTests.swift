import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// Which plans a subscription store offers, in which order, and what it says about them: levels,
/// relationships to the current plan, intro offers, per-month equivalents.
@Suite struct SubscriptionOptionsTests {
    /// Plan IDs in the order the store lists them, as picker rows or as buttons.
    static func planOrder(_ html: String) -> [String] {
        html.matches(of: /<(?:label|div) class="sk-plan(?:-button)?(?: sk-plan-current)?"[^>]*data-product-id="([^"]*)"/).map { String($0.1) }
    }

    // MARK: order

    /// A group whose catalog order differs from its levels.
    static let shuffled: [Product] = {
        func plan(_ id: String, _ level: Int) -> Product {
            Product(id: id, type: .autoRenewable, displayName: id, description: "", price: Decimal(10 - level),
                    displayPrice: "$\(10 - level).00",
                    subscription: .init(subscriptionGroupID: "g", groupLevel: level, groupDisplayName: "Group", subscriptionPeriod: .monthly),
                    currencyCode: "USD", priceLocaleIdentifier: "en_US")
        }
        return [plan("basic", 3), plan("top", 1), plan("middle", 2), plan("top-too", 1)]
    }()

    @Test func groupIDOrdersByLevelThenCatalogOrder() {
        let output = html(SubscriptionStoreView(groupID: "g"), StoreSnapshot(products: Self.shuffled))
        #expect(Self.planOrder(output) == ["top", "top-too", "middle", "basic"])
    }

    @Test func productIDsAndSubscriptionsKeepTheCollectionOrder() {
        let store = StoreSnapshot(products: Self.shuffled)
        #expect(Self.planOrder(html(SubscriptionStoreView(productIDs: ["middle", "basic", "top"]), store)) == ["middle", "basic", "top"])
        let products = [Self.shuffled[2], Self.shuffled[0]]
        #expect(Self.planOrder(html(SubscriptionStoreView(subscriptions: products), store)) == ["middle", "basic"])
        #expect(Self.planOrder(html(SubscriptionStoreView(productIDs: ["basic", "nonexistent", Fixtures.pellets]), store)) == ["basic"],
                "IDs not sold, and products that aren't subscriptions, are left out")
    }

    // MARK: relationships and the current plan

    @Test func upgradeShowsOnlyHigherLevelsToASubscriber() {
        let family = Fixtures.birdsSubscriber(Fixtures.family)
        let upgrade = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .upgrade), family)
        #expect(Self.planOrder(upgrade) == [Fixtures.premium])
        #expect(!upgrade.contains("Current Plan"))
        let downgrade = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .downgrade), family)
        #expect(Self.planOrder(downgrade) == [Fixtures.individual])
        let both = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: [.upgrade, .current]), family)
        #expect(Self.planOrder(both) == [Fixtures.premium, Fixtures.family])
        let none = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .crossgrade), family)
        #expect(Self.planOrder(none).isEmpty && none.contains("No subscription options are available."))
    }

    @Test func relationshipsDontFilterForSomeoneNotSubscribed() {
        let stranger = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .upgrade))
        #expect(Self.planOrder(stranger) == [Fixtures.premium, Fixtures.family, Fixtures.individual])
        let lapsed = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .upgrade),
                          Fixtures.birdsSubscriber(Fixtures.family, state: .expired))
        #expect(Self.planOrder(lapsed).count == 3)
        #expect(!lapsed.contains("Current Plan"), "an expired plan is not current")
    }

    @Test func theTopPlanHasNoUpgrades() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup, visibleRelationships: .upgrade),
                          Fixtures.birdsSubscriber(Fixtures.premium))
        #expect(Self.planOrder(output).isEmpty)
    }

    @Test func currentPlanIsBadgedAndCannotBeChosenAgain() throws {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup), Fixtures.birdsSubscriber(Fixtures.family))
        let current = try #require(output.components(separatedBy: "<label ").first { $0.contains("value=\"\(Fixtures.family)\"") })
        #expect(current.contains("sk-plan-current") && current.contains("Current Plan"))
        #expect(current.contains(" disabled") && !current.contains(" checked"))
        #expect(output.count(of: "Current Plan") == 1)
        #expect(output.count(of: " checked") == 1)
        let checked = try #require(output.components(separatedBy: "<label ").first { $0.contains(" checked") })
        #expect(checked.contains("value=\"\(Fixtures.premium)\""), "the first plan that isn't current is preselected")
    }

    @Test func aScheduledChangeIsPreselected() throws {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup),
                          Fixtures.birdsSubscriber(Fixtures.family, renewsTo: Fixtures.individual))
        let checked = try #require(output.components(separatedBy: "<label ").first { $0.contains(" checked") })
        #expect(checked.contains("value=\"\(Fixtures.individual)\""))
    }

    @Test func buttonsStyleShowsTheCurrentPlanWithoutABuyButton() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.passGroup).subscriptionStoreControlStyle(.buttons),
                          Fixtures.birdsSubscriber(Fixtures.family))
        #expect(output.contains("✓ <bdi>Family</bdi> — Current Plan"), "the name is isolated from the sentence around it")
        #expect(!output.contains("value=\"purchase:\(Fixtures.family)\""))
        #expect(output.contains("value=\"purchase:\(Fixtures.premium)\""))
    }

    // MARK: intro offers

    @Test func introOfferShownOnlyWhenEligible() {
        let eligible = html(SubscriptionStoreView(groupID: Fixtures.passGroup))
        #expect(eligible.contains(#"<span class="sk-plan-offer">1 week free</span>"#))
        #expect(eligible.contains(#"<span class="sk-plan-offer">1 month free</span>"#))
        #expect(Self.subscribeLabels(eligible).first?.first == "Try It Free")

        let used = StoreSnapshot(products: Fixtures.birds, introOfferEligibleGroups: [])
        let ineligible = html(SubscriptionStoreView(groupID: Fixtures.passGroup), used)
        #expect(!ineligible.contains("free"))
        #expect(!ineligible.contains("Try It Free"))
        #expect(Self.subscribeLabels(ineligible).first?.first == "Subscribe")
    }

    @Test func eligibilityIsPerGroup() {
        let products = Fixtures.birds + Fixtures.foodTruck
        let store = StoreSnapshot(products: products, introOfferEligibleGroups: [Fixtures.socialGroup])
        #expect(!html(SubscriptionStoreView(groupID: Fixtures.passGroup), store).contains("free"))
        #expect(html(SubscriptionStoreView(groupID: Fixtures.socialGroup), store).contains("1 week free"))
    }

    @Test func payUpFrontOfferReadsAsAPriceForAPeriod() {
        let output = html(SubscriptionStoreView(productIDs: [Fixtures.yearly]).subscriptionStoreControlStyle(.picker),
                          StoreSnapshot(products: Fixtures.foodTruck))
        #expect(output.contains("$9.99 for 3 months"))
        #expect(Self.subscribeLabels(output).first == ["Start Offer"])
        #expect(Self.subscribeCaptions(output).first == "$9.99 for 3 months, then $49.99/yr")
    }

    @Test
    func payAsYouGoOverMultiMonthPeriods() {
        let offer = Product.SubscriptionOffer(id: nil, type: .introductory, price: 1.99, displayPrice: "$1.99",
                                              period: .init(value: 3, unit: .month), periodCount: 2, paymentMode: .payAsYouGo)
        #expect(PriceText.offer(offer) == "$1.99 per 3 months for 6 months")
    }

    @Test func offerTexts() {
        func offer(_ mode: Product.SubscriptionOffer.PaymentMode, _ period: Product.SubscriptionPeriod, _ count: Int) -> String {
            PriceText.offer(.init(id: nil, type: .introductory, price: 0.99, displayPrice: "$0.99", period: period, periodCount: count, paymentMode: mode))
        }
        #expect(offer(.freeTrial, .weekly, 1) == "1 week free")
        #expect(offer(.freeTrial, .init(value: 3, unit: .day), 1) == "3 days free")
        #expect(offer(.freeTrial, .weekly, 2) == "2 weeks free")
        #expect(offer(.payUpFront, .init(value: 6, unit: .month), 1) == "$0.99 for 6 months")
        #expect(offer(.payAsYouGo, .monthly, 3) == "$0.99 per month for 3 months")
        #expect(offer(.payAsYouGo, .monthly, 1) == "$0.99 per month for 1 month")
    }

    // MARK: prices

    @Test func yearlyPlanShowsItsMonthlyEquivalentAfterTheBilledAmount() throws {
        let output = html(SubscriptionStoreView(groupID: Fixtures.socialGroup), StoreSnapshot(products: Fixtures.foodTruck))
        let yearly = try #require(output.components(separatedBy: "<label ").first { $0.contains("value=\"\(Fixtures.yearly)\"") })
        #expect(yearly.text(of: "class=\"sk-plan-price\"") == "$49.99/yr$49.99 per year")
        #expect(yearly.text(of: "class=\"sk-plan-equivalent\"") == "$4.17/mo$4.17 per month")
        let billed = try #require(yearly.offset(of: "sk-plan-price")), perMonth = try #require(yearly.offset(of: "sk-plan-equivalent"))
        #expect(billed < perMonth, "the billed amount comes first")
        let monthly = try #require(output.components(separatedBy: "<label ").first { $0.contains("value=\"\(Fixtures.monthly)\"") })
        #expect(!monthly.contains("sk-plan-equivalent"), "a monthly plan has no equivalent")
    }

    @Test
    func buttonsStyleEquivalentIsSpeakable() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.socialGroup).subscriptionStoreControlStyle(.buttons), Self.ineligibleTruck)
        #expect(output.contains(#"<span class="sk-visually-hidden">$4.17 per month</span>"#))
    }

    @Test func billedAmountIsMoreProminentThanTheEquivalent() throws {
        func fontSize(_ selector: String) throws -> Double {
            let rule = try #require(Stylesheet.css.range(of: "\n\(selector){"))
            let body = Stylesheet.css[rule.upperBound...].prefix { $0 != "}" }
            let size = try #require(body.firstMatch(of: /font-size:([0-9.]+)rem/))
            return try #require(Double(size.1))
        }
        #expect(try fontSize(".sk-plan-price") > fontSize(".sk-plan-equivalent"))
        #expect(try fontSize(".sk-plan-price") > fontSize(".sk-plan-offer"))
    }

    @Test(arguments: [("USA", "$49.99", "$4.17"), ("FRA", "49,99\u{A0}€", "4,17\u{A0}€"), ("DEU", "49,99\u{A0}€", "4,17\u{A0}€"),
                      ("GBR", "£49.99", "£4.17"), ("JPN", "¥50", "¥4")])
    func perMonthEquivalentIsFormattedForTheStorefront(_ storefront: String, _ billed: String, _ perMonth: String) throws {
        let products = Fixtures.products(DemoCatalogs.foodTruck, storefront: storefront)
        let yearly = try #require(products.first { $0.id == Fixtures.yearly })
        #expect(yearly.displayPrice == billed)
        #expect(PriceText.monthlyEquivalent(yearly) == perMonth)
        let output = html(SubscriptionStoreView(groupID: Fixtures.socialGroup), StoreSnapshot(products: products))
        #expect(output.contains("\(billed)/yr") && output.contains("\(perMonth)/mo"))
    }

    @Test func equivalentForOtherPeriods() {
        func plan(_ price: Decimal, _ period: Product.SubscriptionPeriod) -> Product {
            Product(id: "p", type: .autoRenewable, displayName: "P", description: "", price: price, displayPrice: "",
                    subscription: .init(subscriptionGroupID: "g", groupLevel: 1, groupDisplayName: "G", subscriptionPeriod: period),
                    currencyCode: "JPY", priceLocaleIdentifier: "ja_JP")
        }
        #expect(PriceText.monthlyEquivalent(plan(5000, .yearly)) == "¥417")
        #expect(PriceText.monthlyEquivalent(plan(3000, .init(value: 3, unit: .month))) == "¥1,000")
        #expect(PriceText.monthlyEquivalent(plan(500, .monthly)) == nil)
        #expect(PriceText.monthlyEquivalent(plan(100, .weekly)) == nil)
        #expect(PriceText.monthlyEquivalent(plan(5, .yearly)) == nil, "¥0 a month would be misleading")
    }

    // MARK: button labels

    /// The lines of each subscribe button, in order.
    static func subscribeLabels(_ html: String) -> [[String]] {
        html.components(separatedBy: "sk-button sk-subscribe").dropFirst().map { chunk in
            let button = chunk.components(separatedBy: "</button>")[0]
            return button.components(separatedBy: "<span class=\"sk-label-line\">").dropFirst().map { $0.components(separatedBy: "</span>")[0] }
        }
    }

    /// The caption above each subscribe button, in order (nil where the label says the price).
    static func subscribeCaptions(_ html: String) -> [String?] {
        html.components(separatedBy: "sk-button sk-subscribe").dropLast().map { before in
            guard let caption = before.components(separatedBy: "<p class=\"sk-button-caption\"").last,
                  before.contains("<p class=\"sk-button-caption\""), !caption.contains("sk-label-line") else { return nil }
            return caption.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first
        }
    }

    static let ineligibleTruck = StoreSnapshot(products: Fixtures.foodTruck, introOfferEligibleGroups: [])

    /// Apple: SubscriptionStoreButton is "a button for subscribing to an in-app subscription with a
    /// localized label and optional caption"; "Some button label configurations cause the button to
    /// have a caption, for example: `.displayName.singleLine`"; `.multiline.action` "prefers to
    /// display an action verb and the price of the subscription as two lines within the same label".
    @Test(arguments: [
        (SubscriptionStoreButtonLabel.automatic, ["Subscribe"], "$49.99/yr"),
        (.action, ["Subscribe"], "$49.99/yr"),
        (.displayName, ["Social Feed+ Yearly"], "$49.99/yr"),
        (.price, ["$49.99/yr"], nil),
        (.multiline, ["Subscribe", "$49.99/yr"], nil),
        (.multiline.action, ["Subscribe", "$49.99/yr"], nil),
        (.multiline.displayName, ["Social Feed+ Yearly", "$49.99/yr"], nil),
        (.multiline.displayName.price, ["Social Feed+ Yearly", "$49.99/yr"], nil),
        (.multiline.action.price, ["Subscribe", "$49.99/yr"], nil),
        (.displayName.singleLine, ["Social Feed+ Yearly"], "$49.99/yr"),
        (.singleLine.displayName.price, ["Social Feed+ Yearly · $49.99/yr"], nil),
        (.action.price.singleLine, ["Subscribe · $49.99/yr"], nil),
        (.singleLine.action.displayName.price, ["Subscribe · Social Feed+ Yearly · $49.99/yr"], nil),
    ] as [(SubscriptionStoreButtonLabel, [String], String?)])
    func subscribeButtonLabel(_ label: SubscriptionStoreButtonLabel, _ lines: [String], _ caption: String?) {
        for style in [StandardSubscriptionStoreControlStyle.picker, .buttons] {
            let output = html(SubscriptionStoreView(productIDs: [Fixtures.yearly])
                .subscriptionStoreControlStyle(style).subscriptionStoreButtonLabel(label), Self.ineligibleTruck)
            #expect(Self.subscribeLabels(output) == [lines], "\(style.kind)")
            #expect(Self.subscribeCaptions(output) == [caption], "\(style.kind)")
            #expect(output.contains(/aria-label="[^"]*\$49\.99 per year"/), "the button's name says the price in words, wherever it is shown")
        }
    }

    @Test func spokenLabelUsesWords() {
        let output = html(SubscriptionStoreView(productIDs: [Fixtures.yearly]).subscriptionStoreControlStyle(.picker), Self.ineligibleTruck)
        #expect(output.contains(#"aria-label="Subscribe, $49.99 per year""#))
        let trial = html(SubscriptionStoreView(productIDs: [Fixtures.monthly]).subscriptionStoreControlStyle(.picker),
                         StoreSnapshot(products: Fixtures.foodTruck))
        #expect(Self.subscribeLabels(trial) == [["Try It Free"]])
        #expect(Self.subscribeCaptions(trial) == ["1 week free, then $4.99/mo"])
        #expect(trial.contains(#"aria-label="Try It Free, 1 week free, then $4.99 per month""#))
    }

    @Test func severalButtonsFallBackFromActionToNames() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.socialGroup)
            .subscriptionStoreControlStyle(.buttons).subscriptionStoreButtonLabel(.action), Self.ineligibleTruck)
        #expect(Self.subscribeLabels(output) == [["Social Feed+ Monthly"], ["Social Feed+ Yearly"]])
        #expect(Self.subscribeCaptions(output) == ["$4.99/mo", "$49.99/yr"], "each button keeps its price, as a caption")
        let automatic = html(SubscriptionStoreView(groupID: Fixtures.socialGroup).subscriptionStoreControlStyle(.buttons), Self.ineligibleTruck)
        #expect(Self.subscribeLabels(automatic) == [["Social Feed+ Monthly", "$4.99/mo"], ["Social Feed+ Yearly", "$49.99/yr"]])
    }

    @Test func pickerRadiosCarryTheLabelForEachPlan() {
        let output = html(SubscriptionStoreView(groupID: Fixtures.socialGroup).subscriptionStoreButtonLabel(.multiline.displayName.price),
                          Self.ineligibleTruck)
        #expect(output.values(of: "data-button-lines") == ["Social Feed+ Monthly\n$4.99/mo", "Social Feed+ Yearly\n$49.99/yr"])
        #expect(output.contains(#"<fieldset class="sk-plans""#) && output.count(of: #"type="radio""#) == 2)
    }

    @Test func automaticControlStyleDependsOnThePlanCount() {
        #expect(html(SubscriptionStoreView(groupID: Fixtures.socialGroup), Self.ineligibleTruck).contains(#"data-control-style="picker""#))
        #expect(html(SubscriptionStoreView(productIDs: [Fixtures.yearly]), Self.ineligibleTruck).contains(#"data-control-style="buttons""#))
    }
}
