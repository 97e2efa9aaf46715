import Foundation
import Testing
@testable import StoreModel

struct DemoCatalogTests {
    @Test func bothLoadWithoutFaults() throws {
        for (bundleID, json) in DemoCatalogs.all {
            #expect(!bundleID.isEmpty)
            let catalog = try Catalog.decode(Data(json.utf8))
            #expect(catalog.formatVersion == CatalogVersion(major: 3, minor: 0))
            #expect(catalog.identifier != nil)
            #expect(json.hasSuffix("}\n"))
        }
    }

    @Test func backyardBirds() throws {
        let catalog = try Catalog.decode(Data(DemoCatalogs.backyardBirds.utf8))
        #expect(DemoCatalogs.backyardBirdsBundleID == "com.example.backyardbirds")
        let consumables = catalog.products.filter { $0.kind == .consumable }
        #expect((5...6).contains(consumables.count))
        for product in consumables {
            #expect(product.price >= dec("0.99") && product.price <= dec("9.99"))
            #expect(product.localizations.map(\.locale) == ["en_US", "fr_FR"])
            #expect(product.localizations.allSatisfy { !$0.displayName.isEmpty && !$0.description.isEmpty })
        }
        let group = try #require(catalog.subscriptionGroups.first)
        #expect(catalog.subscriptionGroups.count == 1)
        #expect(group.referenceName == "Backyard Birds Pass")
        let subscriptions = group.productIDs.compactMap { catalog.product($0) }
        #expect(subscriptions.map { $0.subscription?.groupLevel } == [1, 2, 3])
        #expect(subscriptions.map(\.price) == [dec("11.99"), dec("7.99"), dec("4.99")])
        #expect(subscriptions.map { $0.localization(for: "en_US")?.displayName } == ["Premium", "Family", "Individual"])
        for product in subscriptions {
            let subscription = try #require(product.subscription)
            #expect(subscription.period == period("P1M"))
            let intro = try #require(subscription.introductoryOffer)
            #expect(intro.paymentMode == .freeTrial)
            #expect([period("P1W"), period("P1M")].contains(intro.period))
        }
        let offers = subscriptions.compactMap(\.subscription)
        #expect(offers.flatMap(\.promotionalOffers).contains { $0.id != nil })
        let code = try #require(offers.flatMap(\.codeOffers).first)
        #expect(!code.eligibility.isEmpty)
        let winBack = try #require(offers.flatMap(\.winBackOffers).first)
        #expect(winBack.id != nil && winBack.referenceName != nil && winBack.price != nil)
        #expect(winBack.periodCount >= 1)

        let settings = catalog.settings
        #expect(settings.storefront == "USA" && settings.locale == "en_US" && settings.timeRate == 0)
        #expect(settings.billingGracePeriodEnabled)
        #expect(settings.storeKitErrors.map(\.name) == StoreKitErrorSetting.apiNames)
        #expect(settings.storeKitErrors.allSatisfy { !$0.enabled })
        let policies = try #require(catalog.appPolicies)
        #expect(policies.eula == "")
        #expect(policies.policies.first?.url.hasPrefix("https://example.com/") == true)
    }

    @Test func foodTruck() throws {
        let catalog = try Catalog.decode(Data(DemoCatalogs.foodTruck.utf8))
        #expect(DemoCatalogs.foodTruckBundleID == "com.example.foodtruck")
        let history = try #require(catalog.product("com.example.foodtruck.annualhistory"))
        #expect(history.kind == .nonConsumable)
        #expect(history.price == dec("4.99"))
        #expect(history.localization(for: "en_US")?.displayName == "Annual Sales History")
        #expect(history.localizations.count == 2)

        let group = try #require(catalog.subscriptionGroups.first)
        #expect(group.referenceName == "Social Feed+")
        let plans = group.productIDs.compactMap { catalog.product($0) }
        #expect(plans.count == 2)
        let monthly = try #require(plans.first { $0.subscription?.period == period("P1M") })
        let yearly = try #require(plans.first { $0.subscription?.period == period("P1Y") })
        #expect(monthly.price == dec("4.99"))
        #expect(yearly.price == dec("49.99"))
        #expect(monthly.subscription?.groupLevel == yearly.subscription?.groupLevel)  // crossgrade
        #expect(monthly.subscription?.introductoryOffer?.paymentMode == .freeTrial)
        #expect(monthly.subscription?.introductoryOffer?.period == period("P1W"))
        let yearlyIntro = try #require(yearly.subscription?.introductoryOffer)
        #expect(yearlyIntro.paymentMode != .freeTrial && yearlyIntro.price != nil)
        let all = plans.compactMap(\.subscription)
        #expect(all.flatMap(\.promotionalOffers).count >= 1)
        #expect(all.flatMap(\.codeOffers).count >= 1)
        #expect(plans.allSatisfy { $0.localizations.count == 2 })

        #expect(catalog.settings.renewalBillingIssuesEnabled == false)
        #expect(catalog.settings.timeRate == 0)
        #expect(catalog.appPolicies != nil)
    }

    /// The demos are written the way Xcode writes files: keys sorted at every level.
    @Test func keysAreSorted() throws {
        for (_, json) in DemoCatalogs.all {
            let root = try JSONReader.parse(Data(json.utf8))
            var objects = [root]
            while let value = objects.popLast() {
                switch value {
                case let .object(members):
                    #expect(members.map(\.key) == members.map(\.key).sorted())
                    objects += members.map(\.value)
                case let .array(elements):
                    objects += elements
                default: break
                }
            }
        }
    }
}
