import Foundation
import Testing
@testable import StoreModel

/// The four real `.storekit` files in ../shared/reference/storekit-samples. Skipped when the
/// folder is absent (a fresh clone); the fixtures cover the same ground.
@Suite(.enabled(if: TestSupport.samplesAvailable, "needs ../shared/reference/storekit-samples"))
struct SampleCatalogTests {
    @Test func backyardBirds() throws {
        let catalog = try TestSupport.sample("apple-sample-backyard-birds_Store.storekit")
        #expect(catalog.identifier == "DD874EC3")
        #expect(catalog.formatVersion == CatalogVersion(major: 3, minor: 0))
        #expect(catalog.products.count == 9)
        #expect(catalog.products.filter { $0.kind == .consumable }.count == 6)
        #expect(catalog.products.prefix(6).map(\.id) == [
            "pellet.single", "pellet.box", "acorns.individual", "acorns.collection", "nectar.cup", "nectar.bottle",
        ])
        let pellet = try #require(catalog.product("pellet.single"))
        #expect(pellet.price == dec("1.99"))
        #expect(pellet.internalID == "D771AF0A")
        #expect(pellet.localization(for: "en_US")?.displayName == "Nutritional Pellet")
        #expect(pellet.subscription == nil)

        #expect(catalog.subscriptionGroups.count == 1)
        let group = try #require(catalog.group("6F3A93AB"))
        #expect(group.referenceName == "Backyard Birds Pass")
        #expect(group.productIDs == ["pass.premium", "pass.family", "pass.individual"])
        #expect(group.displayName(for: "en_US") == "Backyard Birds Pass")
        let levels = group.productIDs.compactMap { catalog.product($0)?.subscription?.groupLevel }
        #expect(levels == [1, 2, 3])

        let premium = try #require(catalog.product("pass.premium"))
        #expect(premium.kind == .autoRenewable)
        #expect(premium.price == dec("11.99"))
        #expect(premium.familyShareable)
        let subscription = try #require(premium.subscription)
        #expect(subscription.groupID == "6F3A93AB")
        #expect(subscription.period == SubscriptionPeriod(unit: .month, value: 1))
        for id in group.productIDs {
            let intro = try #require(catalog.product(id)?.subscription?.introductoryOffer)
            #expect(intro.paymentMode == .freeTrial)
            #expect(intro.discountType == .freeTrial)
            #expect(intro.offerType == .introductory)
            #expect(intro.period == period("P1M"))
            #expect(intro.periodCount == 1)
            #expect(intro.price == nil)
        }
        #expect(subscription.promotionalOffers.isEmpty && subscription.codeOffers.isEmpty)

        let settings = catalog.settings
        #expect(settings.storefront == "USA")
        #expect(settings.locale == "en_US")
        #expect(settings.failTransactionsEnabled == false)
        #expect(settings.storeKitErrors.map(\.name) == StoreKitErrorSetting.apiNames)
        #expect(settings.storeKitErrors.allSatisfy { !$0.enabled && $0.current == nil })
        #expect(catalog.appPolicies == nil)
        #expect(catalog.offerKeyPair == nil)
    }

    @Test func foodTruck() throws {
        let catalog = try TestSupport.sample("apple-sample-food-truck_Products.storekit")
        #expect(catalog.identifier == "8165582C")
        #expect(catalog.formatVersion == CatalogVersion(major: 2, minor: 0))
        #expect(catalog.products.map(\.id) == ["feature.annualhistory", "socialfeedplus.monthly", "socialfeedplus.yearly"])

        let history = try #require(catalog.product("feature.annualhistory"))
        #expect(history.kind == .nonConsumable)
        #expect(history.price == dec("0.99"))
        #expect(history.localizations.map(\.locale) == ["en_US", "ar"])
        #expect(history.localization(for: "ar_SA")?.displayName == "سجل تاريخ لمدة عام")
        #expect(history.localization(for: "ar")?.description == "بيانات ومعلومات تغطي عامًا كاملًا")

        let group = try #require(catalog.group("20947887"))
        #expect(group.referenceName == "Social Feed+")
        #expect(group.productIDs == ["socialfeedplus.monthly", "socialfeedplus.yearly"])

        let monthly = try #require(catalog.product("socialfeedplus.monthly")?.subscription)
        #expect(monthly.groupLevel == 1)
        let payg = try #require(monthly.introductoryOffer)
        #expect(payg.paymentMode == .payAsYouGo)
        #expect(payg.discountType == .payAsYouGo)
        #expect(payg.periodCount == 3)
        #expect(payg.price == dec("2.49"))
        #expect(payg.totalDuration == period("P3M"))
        #expect(monthly.codeOffers.count == 1)
        let freeMonth = try #require(monthly.codeOffers.first)
        #expect(freeMonth.kind == .code)
        #expect(freeMonth.offerType == .offerCode)
        #expect(freeMonth.eligibility == ["existing", "new", "expired"])
        #expect(freeMonth.isStackable == true)
        #expect(freeMonth.referenceName == "Free month")
        #expect(freeMonth.id == nil)

        let yearly = try #require(catalog.product("socialfeedplus.yearly")?.subscription)
        #expect(yearly.groupLevel == 1)
        #expect(yearly.period == period("P1Y"))
        let upFront = try #require(yearly.introductoryOffer)
        #expect(upFront.paymentMode == .payUpFront)
        #expect(upFront.price == dec("8.99"))
        #expect(upFront.period == period("P3M"))
        #expect(upFront.periodCount == 1)
        let halfOff = try #require(yearly.codeOffers.first)
        #expect(halfOff.eligibility == ["new"])
        #expect(halfOff.isStackable == false)
        #expect(halfOff.price == dec("29.99"))

        #expect(catalog.settings.billingGracePeriodEnabled == false)
        #expect(catalog.settings.renewalBillingIssuesEnabled == false)
        #expect(catalog.settings.timeRate == 0)
        #expect(catalog.settings.locale == "en_US")  // absent: Xcode's default
    }

    @Test func revenueCatVersion11() throws {
        let catalog = try TestSupport.sample("revenuecat_UnitTestsConfiguration_v1.1.storekit")
        #expect(catalog.formatVersion == CatalogVersion(major: 1, minor: 1))
        #expect(catalog.products.map(\.id) == [
            "lifetime", "com.revenuecat.consumable", "com.revenuecat.non_renewable",
            "com.revenuecat.monthly_4.99.1_week_intro", "com.revenuecat.annual_39.99.2_week_intro",
        ])
        let nonRenewing = try #require(catalog.product("com.revenuecat.non_renewable"))
        #expect(nonRenewing.kind == .nonRenewing)
        #expect(nonRenewing.price == dec("1.69"))
        #expect(nonRenewing.subscription == nil)
        #expect(catalog.product("lifetime")?.familyShareable == true)
        #expect(catalog.product("lifetime")?.price == dec("199.99"))

        let monthly = try #require(catalog.product("com.revenuecat.monthly_4.99.1_week_intro")?.subscription)
        #expect(monthly.promotionalOffers.count == 2)
        let yearDiscount = monthly.promotionalOffers[0]
        #expect(yearDiscount.kind == .promotional)
        #expect(yearDiscount.offerType == .promotional)
        #expect(yearDiscount.id == "com.revenuecat.monthly_4.99.1_week_intro.year_discount")
        #expect(yearDiscount.paymentMode == .payUpFront)
        #expect(yearDiscount.price == dec("40.99"))
        #expect(yearDiscount.periodCount == 1)
        let payg = monthly.promotionalOffers[1]
        #expect(payg.id == "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go")
        #expect(payg.periodCount == 2)
        #expect(payg.price == dec("20.15"))
        #expect(payg.totalDuration == period("P2M"))
        #expect(monthly.codeOffers.isEmpty)  // no codeOffers key in 1.1
        #expect(monthly.introductoryOffer?.period == period("P3M"))

        let annual = try #require(catalog.product("com.revenuecat.annual_39.99.2_week_intro")?.subscription)
        #expect(annual.introductoryOffer?.period == period("P2W"))
        #expect(catalog.settings.timeRate == 6)
        #expect(catalog.settings.storefront == "USA")
    }

    @Test func revenueCatVersion50() throws {
        let catalog = try TestSupport.sample("revenuecat_UnitTestsConfiguration_v5.0.storekit")
        #expect(catalog.formatVersion == CatalogVersion(major: 5, minor: 0))
        #expect(catalog.products.count == 7)
        #expect(catalog.subscriptionGroups.map(\.id) == ["7096FF06", "4BB746BD"])
        #expect(catalog.subscriptionGroups.map(\.referenceName) == ["subscription_group_1", "subscription_group_2"])
        #expect(catalog.group("7096FF06")?.productIDs.count == 3)
        #expect(catalog.group("4BB746BD")?.productIDs == ["com.revenuecat.annual_39.99_no_trial"])

        let policies = try #require(catalog.appPolicies)
        #expect(policies.eula == "")
        #expect(policies.policies == [AppPolicies.Policy(locale: "en_US", text: "", url: "")])

        #expect(catalog.settings == CatalogSettings(
            storefront: "USA", locale: "en_US", timeRate: 0, askToBuyEnabled: false, billingGracePeriodEnabled: false,
            renewalBillingIssuesEnabled: false, interruptedPurchasesEnabled: false, disableDialogs: false,
            failTransactionsEnabled: false, storeKitErrors: []
        ))

        let commitment = try #require(catalog.product("com.revenuecat.sampleapp.monthly.12mocommitment"))
        #expect(commitment.price == dec("11.88"))
        let subscription = try #require(commitment.subscription)
        #expect(subscription.billingPlans == [
            BillingPlan(type: "BILLED_UPFRONT", price: dec("0.99"), commitmentPrice: dec("0.99"), internalID: "1261786A", isEnabled: true),
            BillingPlan(type: "MONTHLY", price: dec("0.5"), commitmentPrice: dec("6.00"), internalID: "8BCD7D45", isEnabled: true),
        ])
        #expect(subscription.introductoryOffers.count == 2)
        #expect(subscription.introductoryOffers.map(\.billingPlanType) == ["BILLED_UPFRONT", "MONTHLY"])
        #expect(subscription.introductoryOffers[1].period == period("P2M"))
        #expect(subscription.introductoryOffer?.billingPlanType == "BILLED_UPFRONT")
        #expect(subscription.promotionalOffers.map(\.id) == ["upfront.promo.offer", "12mocommitment.promo.offer"])
        #expect(subscription.promotionalOffers.allSatisfy { $0.paymentMode == .freeTrial && $0.price == nil })
        #expect(subscription.winBackOffers.isEmpty)

        let noTrial = try #require(catalog.product("com.revenuecat.annual_39.99_no_trial")?.subscription)
        #expect(noTrial.introductoryOffer == nil)  // key absent
        #expect(noTrial.introductoryOffers.isEmpty)
        #expect(noTrial.groupID == "4BB746BD")
        #expect(catalog.product("com.revenuecat.non_renewable")?.kind == .nonRenewing)
    }

    @Test func everyOfferOfEverySampleIsMapped() throws {
        let counts: [String: Int] = [
            "apple-sample-backyard-birds_Store.storekit": 3,
            "apple-sample-food-truck_Products.storekit": 4,
            "revenuecat_UnitTestsConfiguration_v1.1.storekit": 4,
            "revenuecat_UnitTestsConfiguration_v5.0.storekit": 11,
        ]
        for (file, expected) in counts {
            let catalog = try TestSupport.sample(file)
            let offers = catalog.products.flatMap { $0.subscription?.allOffers ?? [] }
            #expect(offers.count == expected, "\(file)")
        }
    }
}
