import Foundation
import Testing
@testable import StoreModel

/// Our own fixtures, which together use every key of reference §1.2–1.6, so a fresh clone
/// (without ../shared) still checks the whole format.
struct FixtureCatalogTests {
    @Test func everythingTopLevel() throws {
        let catalog = try TestSupport.fixture("everything")
        #expect(catalog.identifier == "0E7E2A11")
        #expect(catalog.formatVersion == CatalogVersion(major: 5, minor: 0))
        #expect(catalog.offerKeyPair?.id == "KEYID12345")
        #expect(catalog.offerKeyPair?.privateKey.hasPrefix("MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEH") == true)
        #expect(catalog.appPolicies == AppPolicies(eula: "Custom EULA text.", policies: [
            AppPolicies.Policy(locale: "en_US", text: "Privacy policy", url: "https://example.com/privacy"),
            AppPolicies.Policy(locale: "fr_FR", text: "Politique de confidentialité", url: "https://example.com/fr/privacy"),
        ]))
        // products[], then nonRenewingSubscriptions[], then each group's subscriptions, file order.
        #expect(catalog.products.map(\.id) == [
            "fixture.coins", "fixture.lifetime", "fixture.nolocalizations", "fixture.season",
            "fixture.pro.monthly", "fixture.pro.yearly", "fixture.pro.quarterly",
            "fixture.basic.weekly", "fixture.basic.bimonthly",
        ])
        #expect(catalog.products.map(\.kind) == [
            .consumable, .nonConsumable, .consumable, .nonRenewing,
            .autoRenewable, .autoRenewable, .autoRenewable, .autoRenewable, .autoRenewable,
        ])
        #expect(catalog.products.allSatisfy { ($0.kind == .autoRenewable) == ($0.subscription != nil) })
    }

    @Test func everythingProducts() throws {
        let catalog = try TestSupport.fixture("everything")
        let coins = try #require(catalog.product("fixture.coins"))
        #expect(coins.price == dec("0.99"))
        #expect(coins.internalID == "22222222")
        #expect(coins.referenceName == "Coins")
        #expect(coins.familyShareable == false)
        #expect(coins.localizations.count == 3)
        let lifetime = try #require(catalog.product("fixture.lifetime"))
        #expect(lifetime.price == dec("2800"))
        #expect(lifetime.familyShareable)
        let bare = try #require(catalog.product("fixture.nolocalizations"))
        #expect(bare.localizations.isEmpty)
        #expect(bare.internalID == nil)
        #expect(bare.price == dec("0.5"))
        #expect(bare.localization(for: "en_US") == nil)
        #expect(catalog.product("fixture.season")?.price == dec("2.49"))
    }

    @Test func localizationFallback() throws {
        let catalog = try TestSupport.fixture("everything")
        let coins = try #require(catalog.product("fixture.coins"))
        #expect(coins.localization(for: "fr_FR")?.displayName == "Pièces")  // exact
        #expect(coins.localization(for: "fr-FR")?.displayName == "Pièces")  // separator-insensitive
        #expect(coins.localization(for: "fr")?.displayName == "Pièces (fr)")  // exact bare language
        #expect(coins.localization(for: "fr_CA")?.displayName == "Pièces (fr)")  // bare language
        #expect(Catalog().product("x")?.localization(for: "fr") == nil)
        #expect(coins.localization(for: "de_DE")?.displayName == "Coins")  // en_US
        let lifetime = try #require(catalog.product("fixture.lifetime"))
        #expect(lifetime.localization(for: "de_DE")?.locale == "ja_JP")  // first
    }

    @Test func everythingSettings() throws {
        let settings = try TestSupport.fixture("everything").settings
        #expect(settings.storefront == "FRA")
        #expect(settings.locale == "fr_FR")
        #expect(settings.timeRate == 13)
        #expect(settings.compatibilityTimeRate == ["3": 6])
        #expect(settings.askToBuyEnabled)
        #expect(settings.billingGracePeriodEnabled)
        #expect(settings.renewalBillingIssuesEnabled)
        #expect(settings.interruptedPurchasesEnabled)
        #expect(settings.disableDialogs)
        #expect(settings.failTransactionsEnabled)
        #expect(settings.applicationInternalID == "1552944963")
        #expect(settings.developerTeamID == "ABCDE12345")
        #expect(settings.lastSynchronizedDate == 743722291.47)
        #expect(settings.storeKitErrors == [
            StoreKitErrorSetting(name: "Load Products", enabled: false, current: nil),
            StoreKitErrorSetting(name: "Offer Code Redeem Sheet", enabled: false, current: .init(index: 4, type: "generic")),
            StoreKitErrorSetting(name: "Purchase", enabled: true, current: .init(index: 1, type: "purchase")),
        ])
    }

    @Test func everythingGroups() throws {
        let catalog = try TestSupport.fixture("everything")
        let pro = try #require(catalog.group("A1B2C3D4"))
        #expect(pro.referenceName == "pro_group")
        // Level 1 first; the two level-2 products keep file order.
        #expect(pro.productIDs == ["fixture.pro.yearly", "fixture.pro.monthly", "fixture.pro.quarterly"])
        #expect(pro.displayName(for: "fr_FR") == "Formules Pro")
        #expect(pro.displayName(for: "ja_JP") == "Pro Plans")
        let basic = try #require(catalog.group("E5F6A7B8"))
        #expect(basic.displayName(for: "en_US") == "basic_group")  // no localizations
        #expect(basic.productIDs == ["fixture.basic.weekly", "fixture.basic.bimonthly"])
        // subscriptionGroupID absent: the parent's id is used.
        #expect(catalog.product("fixture.pro.quarterly")?.subscription?.groupID == "A1B2C3D4")
        #expect(catalog.product("fixture.basic.bimonthly")?.subscription?.period == period("P2M"))
        #expect(catalog.product("fixture.basic.weekly")?.subscription?.period == period("P1W"))
        #expect(catalog.product("fixture.pro.quarterly")?.subscription?.period == period("P3M"))
    }

    @Test func everythingOffers() throws {
        let catalog = try TestSupport.fixture("everything")
        let monthly = try #require(catalog.product("fixture.pro.monthly")?.subscription)
        #expect(monthly.groupLevel == 2)
        #expect(monthly.introductoryOffer == CatalogOffer(
            kind: .introductory, internalID: "EEEE0001", paymentMode: .freeTrial, period: period("P3D"),
            periodCount: 1, billingPlanType: "BILLED_UPFRONT"
        ))
        #expect(monthly.introductoryOffers.map(\.period) == [period("P3D"), period("P1W")])

        #expect(monthly.promotionalOffers.count == 2)
        let payg = monthly.promotionalOffers[0]
        #expect(payg.id == "promo.monthly.payg")
        #expect(payg.referenceName == "Three cheap months")
        #expect(payg.periodCount == 3)
        #expect(payg.totalDuration == period("P3M"))
        #expect(payg.price == dec("1.99"))
        #expect(payg.billingPlanType == "BILLED_UPFRONT")
        let upFront = monthly.promotionalOffers[1]
        #expect(upFront.periodCount == 1)  // numberOfPeriods absent
        #expect(upFront.period == period("P6M"))
        #expect(upFront.discountType == .payUpFront)

        #expect(monthly.codeOffers.map(\.eligibility) == [["new", "existing", "expired"], ["expired"]])
        #expect(monthly.codeOffers.map(\.isStackable) == [true, false])
        #expect(monthly.codeOffers[1].totalDuration == period("P4M"))
        #expect(monthly.codeOffers.allSatisfy { $0.kind == .code && $0.offerType == .offerCode && $0.id == nil })

        #expect(monthly.winBackOffers.count == 2)
        let winBack = monthly.winBackOffers[0]
        #expect(winBack.kind == .winBack)
        #expect(winBack.offerType == .winBack)
        #expect(winBack.id == "winback.monthly")
        #expect(winBack.referenceName == "We miss you")
        #expect(winBack.paymentMode == .payAsYouGo)
        #expect(winBack.price == dec("1.49"))
        #expect(winBack.periodCount == 2)
        #expect(monthly.winBackOffers[1].price == nil)

        #expect(monthly.billingPlans == [
            BillingPlan(type: "BILLED_UPFRONT", price: dec("4.99"), commitmentPrice: dec("4.99"), internalID: "BBBB0001", isEnabled: true),
            BillingPlan(type: "MONTHLY", price: dec("0.5"), commitmentPrice: dec("6.00"), internalID: "BBBB0002", isEnabled: false),
        ])

        // introductoryOffer: null, and absent.
        #expect(catalog.product("fixture.pro.yearly")?.subscription?.introductoryOffer == nil)
        #expect(catalog.product("fixture.pro.quarterly")?.subscription?.introductoryOffer == nil)
        let weekly = try #require(catalog.product("fixture.basic.weekly")?.subscription?.introductoryOffer)
        #expect(weekly.paymentMode == .payUpFront)
        #expect(weekly.price == dec("0.99"))
        #expect(weekly.period == period("P2M"))
    }

    @Test func versionOneFile() throws {
        let catalog = try TestSupport.fixture("version1")
        #expect(catalog.identifier == nil)
        #expect(catalog.formatVersion == CatalogVersion(major: 1, minor: 0))
        #expect(catalog.settings == CatalogSettings())  // no settings block: Xcode's defaults
        #expect(catalog.settings.storefront == "USA")
        #expect(catalog.settings.locale == "en_US")
        #expect(catalog.settings.timeRate == 0)
        #expect(catalog.products.map(\.id) == ["v1.gems", "v1.monthly"])
        #expect(catalog.product("v1.monthly")?.subscription?.codeOffers == [])
        #expect(catalog.appPolicies == nil)
    }

    @Test func minimalDocuments() throws {
        #expect(try Catalog.decode(Data(#"{"products" : [ ]}"#.utf8)) == Catalog())
        let noVersion = try Catalog.decode(Data(#"{"products":[{"productID":"a","type":"Consumable","displayPrice":"1"}]}"#.utf8))
        #expect(noVersion.formatVersion == nil)
        #expect(noVersion.product("a")?.referenceName == "")
        #expect(noVersion.product("a")?.localizations == [])
    }
}
