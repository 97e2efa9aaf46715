import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// The demo stores of issue 6 §5, as a customer in each state sees them.
@Suite struct DemoPagesTests {
    func render(_ id: String, _ store: StoreSnapshot, phase: RenderPhase = .loaded) throws -> String {
        let page = try #require(DemoStorePages.page(id), "no demo page \(id)")
        return PageRenderer.render(page.make(), store: store, options: .init(title: page.title, phase: phase)).html
    }

    static func truck(_ statuses: [Product.SubscriptionInfo.Status] = [], appVersion: String? = nil) -> StoreSnapshot {
        StoreSnapshot(products: Fixtures.foodTruck, subscriptionStatuses: [Fixtures.socialGroup: statuses],
                      appTransaction: appVersion.map { Fixtures.appTransaction(originalAppVersion: $0) },
                      termsOfServiceURL: "https://example.com/terms", now: Fixtures.now)
    }

    @Test func everyPageRendersForEveryKindOfCustomer() throws {
        let stores = [StoreSnapshot(products: Fixtures.birds), Fixtures.birdsSubscriber(Fixtures.family), Self.truck()]
        for page in DemoStorePages.all {
            for store in stores {
                for phase in RenderPhase.allCases {
                    let html = try render(page.id, store, phase: phase)
                    #expect(html.hasSuffix("</html>"), "\(page.id)")
                }
            }
        }
    }

    @Test func upgradeOfferOnlyForSubscribersBelowTheTopLevel() throws {
        let family = try render("backyard-birds", Fixtures.birdsSubscriber(Fixtures.family))
        #expect(family.contains("Upgrade your Pass"))
        #expect(family.contains("purchase:\(Fixtures.premium)") && !family.contains("purchase:\(Fixtures.individual)"))
        #expect(!(try render("backyard-birds", Fixtures.birdsSubscriber(Fixtures.premium))).contains("Upgrade your Pass"))
        #expect(!(try render("backyard-birds", StoreSnapshot(products: Fixtures.birds))).contains("Upgrade your Pass"))
        #expect(!(try render("backyard-birds", Fixtures.birdsSubscriber(Fixtures.family, state: .expired))).contains("Upgrade your Pass"))
    }

    @Test func birdFoodShopHasALargeBestValueAboveRegularAndCompactShelves() throws {
        let html = try render("backyard-birds", StoreSnapshot(products: Fixtures.birds))
        let large = try #require(html.offset(of: "sk-product sk-product-large"))
        let regular = try #require(html.offset(of: "sk-product sk-product-regular"))
        let compact = try #require(html.offset(of: "sk-product sk-product-compact"))
        #expect(large < regular && regular < compact)
        #expect(html.count(of: "<article") == 6)
    }

    @Test func passShopAsInTheTalk() throws {
        let html = try render("backyard-birds-pass", StoreSnapshot(products: Fixtures.birds, privacyPolicyURL: "https://example.com/p"))
        #expect(html.contains("sk-has-full-background") && html.contains("sk-full-background"))
        #expect(html.contains("Redeem Code") && html.contains("Privacy Policy"))
        #expect(html.contains("Try It Free"))
        #expect(!html.contains("Restore Purchases"))
        let loading = try render("backyard-birds-pass", StoreSnapshot(products: Fixtures.birds), phase: .loading)
        #expect(loading.contains("sk-progress") && !loading.contains(#"type="radio""#))
    }

    @Test func passShopShowsOnlyUpgradesToALowerLevelSubscriber() throws {
        let html = try render("backyard-birds-pass", Fixtures.birdsSubscriber(Fixtures.individual))
        #expect(html.contains("Backyard Birds Premium"))
        #expect(SubscriptionOptionsTests.planOrder(html) == [Fixtures.premium, Fixtures.family])
    }

    @Test func foodTruckStatusPanel() throws {
        #expect(try render("food-truck", Self.truck()).contains("Not purchased"))
        let active = try render("food-truck", Self.truck([Fixtures.status(Fixtures.monthly)]))
        #expect(active.contains("subscription active until"))
        #expect(active.contains("Current Plan"))
        let expired = try render("food-truck", Self.truck([Fixtures.status(Fixtures.yearly, state: .expired)]))
        #expect(expired.contains("expired at"))
        #expect(active.contains("Restore Purchases") && active.contains("Not Now") && active.contains(#"href="https://example.com/terms""#))
    }

    @Test func earlyCustomersKeepTheSalesHistory() throws {
        let early = try render("food-truck", Self.truck(appVersion: "7.2"))
        #expect(early.contains("✓ Unlocked") && !early.contains("purchase:\(Fixtures.annualHistory)"))
        for version in ["8.0", "8.1.2", "10.0"] {
            let later = try render("food-truck", Self.truck(appVersion: version))
            #expect(later.contains("purchase:\(Fixtures.annualHistory)"), "\(version)")
        }
        #expect(try render("food-truck", Self.truck()).contains("purchase:\(Fixtures.annualHistory)"))
    }
}
