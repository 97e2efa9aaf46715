import Foundation
import StoreKitTypes
import StoreModel
import Testing
@testable import StoreViews

/// Issue 16 §5: the talk's store shows a yearly plan's per-month price and what it saves over the
/// monthly plan. `PriceText.savings` exposes the saving as data; the Food Truck demo shows it.
@Suite struct SavingsTests {
    func plan(_ id: String, _ price: Decimal, _ display: String, _ period: Product.SubscriptionPeriod,
              currency: String = "USD", locale: String = "en_US") -> Product {
        Product(id: id, type: .autoRenewable, displayName: id, description: "", price: price, displayPrice: display,
                subscription: .init(subscriptionGroupID: "G", groupLevel: 1, groupDisplayName: "G", subscriptionPeriod: period),
                currencyCode: currency, priceLocaleIdentifier: locale)
    }

    @Test func aYearlyPlanSavesOverTwelveMonthlyPayments() throws {
        let yearly = plan("y", Decimal(string: "49.99")!, "$49.99", .yearly)
        let monthly = plan("m", Decimal(string: "4.99")!, "$4.99", .monthly)
        let savings = try #require(PriceText.savings(yearly, over: monthly))
        #expect(savings.amount == Decimal(string: "9.89")!)          // 12 × 4.99 − 49.99
        #expect(savings.percent == 16)                               // 16.5 %, rounded down
        #expect(savings.displayAmount == "$9.89")
    }

    @Test func theSavingIsFormattedForTheStorefront() throws {
        let yearly = plan("y", Decimal(string: "49.99")!, "49,99 €", .yearly, currency: "EUR", locale: "fr_FR")
        let monthly = plan("m", Decimal(string: "5.99")!, "5,99 €", .monthly, currency: "EUR", locale: "fr_FR")
        let savings = try #require(PriceText.savings(yearly, over: monthly))
        #expect(savings.amount == Decimal(string: "21.89")!)
        #expect(savings.percent == 30)
        #expect(savings.displayAmount == "21,89\u{00A0}€")
    }

    @Test func noSavingWhenPeriodsDontDivideOrNothingIsSaved() {
        let monthly = plan("m", Decimal(string: "4.99")!, "$4.99", .monthly)
        #expect(PriceText.savings(plan("w", 1, "$1.00", .weekly), over: monthly) == nil, "shorter than the reference")
        #expect(PriceText.savings(monthly, over: plan("w", 1, "$1.00", .weekly)) == nil, "a week doesn't divide a month")
        #expect(PriceText.savings(plan("y", Decimal(string: "59.88")!, "$59.88", .yearly), over: monthly) == nil, "costs the same")
        #expect(PriceText.savings(plan("y", 70, "$70.00", .yearly), over: monthly) == nil, "costs more")
        let consumable = Product(id: "c", type: .consumable, displayName: "c", description: "", price: 1, displayPrice: "$1.00",
                                 currencyCode: "USD", priceLocaleIdentifier: "en_US")
        #expect(PriceText.savings(consumable, over: monthly) == nil)
    }

    @Test func theFoodTruckDemoShowsTheYearlySaving() throws {
        let page = try #require(DemoStorePages.page("food-truck"))
        let html = PageRenderer.render(page.make(), store: DemoPagesTests.truck(), options: .init(title: page.title)).html
        #expect(html.contains("Save 16% with the yearly plan: $9.89 less than paying monthly."))
    }
}
