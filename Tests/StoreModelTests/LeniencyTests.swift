import Foundation
import Testing
@testable import StoreModel

/// What Xcode tolerates loads, read the way Xcode reads it, and each oddity is a warning with its
/// JSON path; strict reading turns the warnings into faults (docs/catalog-format.md).
struct LeniencyTests {
    private func corpus(_ name: String) throws -> String {
        let url = try #require(CorpusTests.folder).appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    private func read(_ json: String, strict: Bool = false) throws(CatalogError) -> CatalogReading {
        try Catalog.read(Data(json.utf8), strict: strict)
    }

    private static let emptyPrice = "the price is empty (never filled in); read as 0, as Xcode shows an unset price"

    // MARK: Empty prices

    @Test func anEmptyPriceIsAPriceOfZeroWithAWarning() throws {
        let json = """
        {"products": [{"productID": "tip", "type": "Consumable", "displayPrice": ""}],
         "subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "pro", "type": "RecurringSubscription",
           "displayPrice": "", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
           "introductoryOffer": {"paymentMode": "payUpFront", "subscriptionPeriod": "P3M", "displayPrice": ""},
           "billingPlans": [{"billingPlanType": "MONTHLY", "displayPrice": "", "commitmentDisplayPrice": ""}]}]}]}
        """
        let reading = try read(json)
        #expect(reading.catalog.product("tip")?.price == 0)
        let pro = try #require(reading.catalog.product("pro"))
        #expect(pro.price == 0)
        #expect(pro.subscription?.introductoryOffer?.price == 0)
        #expect(pro.subscription?.billingPlans.first?.price == 0)
        #expect(pro.subscription?.billingPlans.first?.commitmentPrice == 0)
        let subscription = "subscriptionGroups[0].subscriptions[0]"
        #expect(reading.warnings == [
            CatalogWarning(path: "products[0].displayPrice", message: Self.emptyPrice),
            CatalogWarning(path: "\(subscription).displayPrice", message: Self.emptyPrice),
            CatalogWarning(path: "\(subscription).introductoryOffer.displayPrice", message: Self.emptyPrice),
            CatalogWarning(path: "\(subscription).billingPlans[0].displayPrice", message: Self.emptyPrice),
            CatalogWarning(path: "\(subscription).billingPlans[0].commitmentDisplayPrice", message: Self.emptyPrice),
        ])
        // Shown as Xcode shows an unset price: zero in the storefront's currency.
        let usa = try #require(Storefront.lookup("USA"))
        #expect(usa.formatted(reading.catalog.product("tip")?.price ?? 1) == "$0.00")
        let table = CatalogTable.render(reading.catalog, storefront: usa).split(separator: "\n")
        #expect(table.contains { $0.hasPrefix("tip ") && $0.hasSuffix(" $0.00") })
        #expect(table.contains { $0.hasPrefix("pro ") && $0.hasSuffix(" $0.00 / P1M") })
    }

    /// A real file with every price emptied, as Xcode leaves a catalog whose prices were never
    /// filled in: it loads, every price is 0, and each emptied price is one warning at its path.
    @Test func aRealCatalogWithEveryPriceEmptied() throws {
        let text = try corpus("revenuecat-ios_purchase-tester-swiftui.storekit")
        let pattern = try NSRegularExpression(pattern: #""displayPrice" : "[0-9.]+""#)
        let emptied = pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                       withTemplate: #""displayPrice" : """#)
        let count = pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(count > 20)
        let reading = try read(emptied)
        let original = try read(text).catalog
        #expect(reading.catalog.products.map(\.id) == original.products.map(\.id))
        #expect(reading.catalog.products.allSatisfy { $0.price == 0 })
        #expect(reading.catalog.products.flatMap { $0.subscription?.allOffers ?? [] }.allSatisfy { $0.price == nil || $0.price == 0 })
        #expect(reading.warnings.count == count)
        #expect(reading.warnings.allSatisfy { $0.path.hasSuffix(".displayPrice") && $0.message == Self.emptyPrice })
        #expect(reading.warnings.first?.path == "nonRenewingSubscriptions[0].displayPrice")
    }

    /// Only the empty string is tolerated: other bad prices stay faults.
    @Test func otherBadPricesStayFaults() {
        #expect(TestSupport.faults(#"{"products": [{"productID": "a", "type": "Consumable", "displayPrice": " "}]}"#) == [
            CatalogFault(path: "products[0].displayPrice", message: #"" " is not a decimal price"#),
        ])
        #expect(TestSupport.faults(#"{"products": [{"productID": "a", "type": "Consumable", "displayPrice": null}]}"#) == [
            CatalogFault(path: "products[0].displayPrice", message: "expected a string, found null"),
        ])
    }

    // MARK: The number form of _compatibilityTimeRate

    @Test func theNumberFormOfCompatibilityTimeRateIsTheOldTimeRate() throws {
        let reading = try read(#"{"products": [], "settings": {"_compatibilityTimeRate": 6, "_locale": "en_US"}}"#)
        #expect(reading.catalog.settings.timeRate == 6)
        #expect(reading.catalog.settings.compatibilityTimeRate == [:])
        #expect(reading.warnings == [CatalogWarning(
            path: "settings._compatibilityTimeRate",
            message: #"a number here is the old time-rate field; read as "_timeRate" : 6"#)])
        // When `_timeRate` is there too, it is the newer field and wins.
        let both = try read(#"{"settings": {"_compatibilityTimeRate": 1, "_timeRate": 1003}}"#)
        #expect(both.catalog.settings.timeRate == 1003)
        #expect(both.warnings == [CatalogWarning(
            path: "settings._compatibilityTimeRate",
            message: #"a number here is the old time-rate field; "_timeRate" is also given and wins, so 1 is ignored"#)])
        // The object form is the current one: no warning.
        let object = try read(#"{"settings": {"_compatibilityTimeRate": {"3": 6}, "_timeRate": 13}}"#)
        #expect(object.warnings == [] && object.catalog.settings.compatibilityTimeRate == ["3": 6])
        // Anything else is still a fault.
        #expect(TestSupport.faults(#"{"settings": {"_compatibilityTimeRate": "6"}}"#) == [
            CatalogFault(path: "settings._compatibilityTimeRate", message: "expected an object, found string"),
        ])
        #expect(TestSupport.faults(#"{"settings": {"_compatibilityTimeRate": 1.5}}"#) == [
            CatalogFault(path: "settings._compatibilityTimeRate", message: "expected an integer, found number 1.5"),
        ])
    }

    /// A real Xcode 3.0-era file turned back into the old form, as the issue saw in the wild.
    @Test func aRealCatalogWithTheOldNumberForm() throws {
        let text = try corpus("superwall-ios_advanced.storekit")
        let old = text.replacingOccurrences(of: "\"_compatibilityTimeRate\" : {\n      \"3\" : 6\n    },", with: "\"_compatibilityTimeRate\" : 1,")
            .replacingOccurrences(of: ",\n    \"_timeRate\" : 1003", with: "")
        #expect(old != text)
        let reading = try read(old)
        #expect(reading.catalog.settings.timeRate == 1)
        #expect(reading.warnings.map(\.path) == ["settings._compatibilityTimeRate"])
        #expect(reading.catalog.products.map(\.id) == (try read(text)).catalog.products.map(\.id))
    }

    // MARK: Repeated subscription group IDs

    @Test func repeatedGroupIDsKeepTheGroupsApart() throws {
        let reading = try read(try corpus("revenuecat-kmp_app201bda4dab-minified.storekit"))
        let catalog = reading.catalog
        #expect(catalog.subscriptionGroups.map(\.id) == ["6306BD58", "6306BD58-2", "6306BD58-3"])
        #expect(catalog.subscriptionGroups.map(\.referenceName) == ["cat_paywalls", "pro_photo", "Paywalls Tester (App Store) Pro"])
        #expect(catalog.group("6306BD58-2")?.productIDs == ["photo_pro_monthly", "photo_pro_yearly"])
        #expect(catalog.product("photo_pro_yearly")?.subscription?.groupID == "6306BD58-2")
        #expect(catalog.product("chatgpt_pro_monthly")?.subscription?.groupID == "6306BD58-3")
        #expect(catalog.product("paywall_subs_monthly")?.subscription?.groupID == "6306BD58")
        // Each warning names both paths.
        #expect(reading.warnings == [
            CatalogWarning(path: "subscriptionGroups[1].id", message: #"subscription group ID "6306BD58" is repeated (first at subscriptionGroups[0].id); this group is kept apart as "6306BD58-2""#),
            CatalogWarning(path: "subscriptionGroups[2].id", message: #"subscription group ID "6306BD58" is repeated (first at subscriptionGroups[0].id); this group is kept apart as "6306BD58-3""#),
        ])
    }

    /// The id given to a repeated group is never one the file already spells.
    @Test func aKeptApartIDNeverCollides() throws {
        let json = """
        {"subscriptionGroups": [{"id": "A", "subscriptions": []}, {"id": "A", "subscriptions": []},
                                {"id": "A-2", "subscriptions": []}, {"id": "A", "subscriptions": []}]}
        """
        let reading = try read(json)
        #expect(reading.catalog.subscriptionGroups.map(\.id) == ["A", "A-3", "A-2", "A-4"])
        #expect(reading.warnings.map(\.path) == ["subscriptionGroups[1].id", "subscriptionGroups[3].id"])
    }

    // MARK: Strict reading

    @Test func strictReadingTurnsWarningsIntoFaults() throws {
        let text = try corpus("revenuecat-kmp_app201bda4dab-minified.storekit")
        let lenient = try read(text)
        #expect(throws: CatalogError(faults: lenient.warnings.map(\.fault))) {
            try read(text, strict: true)
        }
        // A tidy file reads the same either way.
        let tidy = try corpus("revenuecat-ios_simple-app.storekit")
        #expect(try read(tidy, strict: true) == (try read(tidy)))
        // Faults and warnings stay in file order when strict.
        let mixed = #"{"products": [{"productID": "a", "type": "Consumable", "displayPrice": ""}, {"productID": "b", "type": "Gadget", "displayPrice": "1"}]}"#
        #expect(throws: CatalogError(faults: [
            CatalogFault(path: "products[0].displayPrice", message: Self.emptyPrice),
            CatalogFault(path: "products[1].type", message: #""Gadget" is not a product type (Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription)"#),
        ])) {
            try read(mixed, strict: true)
        }
        // Not strict: the fault alone, the warning kept beside it.
        #expect(throws: CatalogError(
            faults: [CatalogFault(path: "products[1].type", message: #""Gadget" is not a product type (Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription)"#)],
            warnings: [CatalogWarning(path: "products[0].displayPrice", message: Self.emptyPrice)])) {
            try read(mixed)
        }
    }

    /// Written back, each oddity is tidy: reading the document gives no warnings.
    @Test func writtenBackTheOdditiesAreTidy() throws {
        let json = #"{"products": [{"productID": "tip", "type": "Consumable", "displayPrice": ""}], "settings": {"_compatibilityTimeRate": 6}, "subscriptionGroups": [{"id": "G", "subscriptions": []}, {"id": "G", "subscriptions": []}]}"#
        let reading = try read(json)
        #expect(reading.warnings.count == 3)
        let document = reading.catalog.storekitDocument()
        #expect(document.contains(#""displayPrice" : "0""#))
        #expect(document.contains(#""_timeRate" : 6"#))
        #expect(document.contains(#""id" : "G-2""#))
        let again = try read(document, strict: true)
        #expect(again.catalog == reading.catalog)
    }
}
