import Foundation
import StoreTestSupport
import Testing
@testable import StoreModel

/// Broken files: every fault is reported with its JSON path, all at once, and nothing crashes.
struct MalformedCatalogTests {
    /// A product body with `extra` JSON members spliced in.
    private func product(_ members: String) -> String {
        #"{"products":[{\#(members)}]}"#
    }

    @Test func badPeriodIsReportedWithItsPath() {
        let data = TestSupport.fixtureData("malformed-period")
        #expect(!data.isEmpty)
        #expect(throws: CatalogError(faults: [CatalogFault(
            path: "subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod",
            message: #""P5X" is not an ISO 8601 period"#
        )])) {
            try Catalog.decode(data)
        }
        do {
            _ = try Catalog.decode(data)
        } catch {
            #expect(error.description == #"subscriptionGroups[0].subscriptions[2].recurringSubscriptionPeriod: "P5X" is not an ISO 8601 period"#)
        }
    }

    @Test func wrongJSONType() {
        let faults = TestSupport.faults(product(#""productID": 42, "type": "Consumable", "displayPrice": "1.99""#))
        #expect(faults == [CatalogFault(path: "products[0].productID", message: "expected a string, found number")])
        #expect(TestSupport.faults(#"{"products": {}}"#) == [CatalogFault(path: "products", message: "expected an array, found object")])
        #expect(TestSupport.faults(#"{"settings": {"_timeRate": "fast"}}"#) == [
            CatalogFault(path: "settings._timeRate", message: "expected an integer, found string"),
        ])
        #expect(TestSupport.faults(#"{"settings": {"_askToBuyEnabled": "yes"}}"#) == [
            CatalogFault(path: "settings._askToBuyEnabled", message: "expected a boolean, found string"),
        ])
        #expect(TestSupport.faults(#"{"products": [7]}"#) == [CatalogFault(path: "products[0]", message: "expected an object, found number")])
        #expect(TestSupport.faults(product(#""productID": "a", "type": "Consumable", "displayPrice": 1.99"#)) == [
            CatalogFault(path: "products[0].displayPrice", message: "expected a string, found number"),
        ])
    }

    @Test func missingRequiredKeys() {
        let faults = TestSupport.faults(product(#""referenceName": "nothing else""#))
        #expect(faults == [
            CatalogFault(path: "products[0].productID", message: "required key is missing"),
            CatalogFault(path: "products[0].type", message: "required key is missing"),
            CatalogFault(path: "products[0].displayPrice", message: "required key is missing"),
        ])
        // localizations may be absent.
        #expect(TestSupport.faults(product(#""productID": "a", "type": "Consumable", "displayPrice": "1""#)).isEmpty)
        // A group needs an id; a subscription needs its period.
        #expect(TestSupport.faults(#"{"subscriptionGroups": [{"name": "x"}]}"#) == [
            CatalogFault(path: "subscriptionGroups[0].id", message: "required key is missing"),
        ])
        let noPeriod = #"{"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "s", "type": "RecurringSubscription", "displayPrice": "1", "groupNumber": 1}]}]}"#
        #expect(TestSupport.faults(noPeriod) == [
            CatalogFault(path: "subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod", message: "required key is missing"),
        ])
    }

    @Test func unparsablePrices() {
        for (text, message) in [
            ("4.9.9", #""4.9.9" is not a decimal price"#),
            (" ", #"" " is not a decimal price"#),
            ("$4.99", #""$4.99" is not a decimal price"#),
            ("4,99", #""4,99" is not a decimal price"#),
            ("1e3", #""1e3" is not a decimal price"#),
            (".99", #"".99" is not a decimal price"#),
            ("-1.00", #""-1.00" is a negative price"#),
        ] {
            let faults = TestSupport.faults(product(#""productID": "a", "type": "Consumable", "displayPrice": "\#(text)""#))
            #expect(faults == [CatalogFault(path: "products[0].displayPrice", message: message)], "\(text)")
        }
        // Exact decimals, never through Double.
        let catalog = try? Catalog.decode(Data(product(#""productID": "a", "type": "Consumable", "displayPrice": "0.1""#).utf8))
        #expect(catalog?.product("a")?.price == Decimal(string: "0.1"))
    }

    @Test func unknownTypeAndPaymentMode() {
        #expect(TestSupport.faults(product(#""productID": "a", "type": "Subscription", "displayPrice": "1""#)) == [
            CatalogFault(path: "products[0].type", message: #""Subscription" is not a product type (Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription)"#),
        ])
        let json = """
        {"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "s", "type": "RecurringSubscription",
          "displayPrice": "1", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
          "introductoryOffer": {"paymentMode": "trial", "subscriptionPeriod": "P1W"}}]}]}
        """
        #expect(TestSupport.faults(json) == [
            CatalogFault(path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode", message: #""trial" is not a payment mode (free, payAsYouGo, payUpFront)"#),
        ])
        // A subscription outside a group, and a consumable inside one.
        #expect(TestSupport.faults(product(#""productID": "a", "type": "RecurringSubscription", "displayPrice": "1""#)).map(\.path) == ["products[0].type"])
        let misplaced = #"{"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "c", "type": "Consumable", "displayPrice": "1", "recurringSubscriptionPeriod": "P1M"}]}]}"#
        #expect(TestSupport.faults(misplaced).map(\.path) == ["subscriptionGroups[0].subscriptions[0].type"])
    }

    /// A repeated product ID is a fault; a repeated group ID is only a warning (LeniencyTests), and
    /// both are reported together.
    @Test func duplicates() {
        let json = """
        {"products": [{"productID": "same", "type": "Consumable", "displayPrice": "1"}],
         "nonRenewingSubscriptions": [{"productID": "same", "type": "NonRenewingSubscription", "displayPrice": "1"}],
         "subscriptionGroups": [
           {"id": "G", "subscriptions": [{"productID": "same", "type": "RecurringSubscription", "displayPrice": "1", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M"}]},
           {"id": "G", "subscriptions": []}]}
        """
        #expect(throws: CatalogError(
            faults: [
                CatalogFault(path: "nonRenewingSubscriptions[0].productID", message: #"duplicate product ID "same", first used at products[0].productID"#),
                CatalogFault(path: "subscriptionGroups[0].subscriptions[0].productID", message: #"duplicate product ID "same", first used at products[0].productID"#),
            ],
            warnings: [
                CatalogWarning(path: "subscriptionGroups[1].id", message: #"subscription group ID "G" is repeated (first at subscriptionGroups[0].id); this group is kept apart as "G-2""#),
            ]
        )) {
            try Catalog.decode(Data(json.utf8))
        }
    }

    /// A number too large for a date is a fault, not an infinite date that could not be written back.
    @Test func anInfiniteDateIsAFault() {
        #expect(TestSupport.faults(#"{"settings": {"_lastSynchronizedDate": 1e400}}"#) == [
            CatalogFault(path: "settings._lastSynchronizedDate", message: "expected a finite number, found 1e400"),
        ])
    }

    @Test func outOfRangeCounts() {
        let json = """
        {"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "s", "type": "RecurringSubscription",
          "displayPrice": "1", "groupNumber": 0, "recurringSubscriptionPeriod": "P1M",
          "adHocOffers": [{"offerID": "o", "paymentMode": "payAsYouGo", "displayPrice": "0.5", "subscriptionPeriod": "P1M", "numberOfPeriods": 0}]}]}]}
        """
        #expect(TestSupport.faults(json) == [
            CatalogFault(path: "subscriptionGroups[0].subscriptions[0].groupNumber", message: "groupNumber must be 1 or more, found 0"),
            CatalogFault(path: "subscriptionGroups[0].subscriptions[0].adHocOffers[0].numberOfPeriods", message: "numberOfPeriods must be 1 or more, found 0"),
        ])
    }

    @Test func topLevelAndInvalidJSON() {
        #expect(TestSupport.faults("[]") == [CatalogFault(path: "", message: "expected a JSON object at the top level, found array")])
        // An object with none of Xcode's keys is another format, not an empty catalog.
        let foreign = CatalogFault(path: "", message: "not an Xcode StoreKit configuration: none of its top-level keys is one Xcode writes (appPolicies, identifier, nonRenewingSubscriptions, products, settings, subscriptionGroups, subscriptionOffersKeyPair, version)")
        #expect(TestSupport.faults("{}") == [foreign])
        #expect(TestSupport.faults(#"{"data": [], "links": {}}"#) == [foreign])
        #expect(TestSupport.faults("\"text\"") == [CatalogFault(path: "", message: "expected a JSON object at the top level, found string")])
        let syntax = TestSupport.faults("{\n  \"products\" : [,]\n}")
        #expect(syntax.count == 1)
        #expect(syntax.first?.path == "")
        #expect(syntax.first?.message == "invalid JSON at line 2, column 17: unexpected ',', expected a value")
        #expect(TestSupport.faults("").first?.message == "invalid JSON: the file is empty")
        #expect(TestSupport.faults("{} {}").first?.message.contains("after the end of the document") == true)
        #expect(TestSupport.faults(String(repeating: "[", count: 100_000)).first?.message.contains("nesting deeper") == true)
    }

    @Test func unreadableFile() {
        let url = URL(fileURLWithPath: "/nonexistent/dir/missing.storekit")
        #expect {
            try Catalog.load(contentsOf: url)
        } throws: { error in
            guard let error = error as? CatalogError, let fault = error.faults.first else { return false }
            return error.faults.count == 1 && fault.path == "" && fault.message.contains("missing.storekit")
        }
    }

    @Test func multipleFaultsAreAllReportedInFileOrder() {
        let json = """
        {
          "products" : [
            {"displayPrice" : "4.9.9", "productID" : "a", "type" : "Consumable"},
            {"displayPrice" : "1.00", "productID" : 5, "type" : "Gadget"}
          ],
          "settings" : {"_storefront" : 1},
          "subscriptionGroups" : [
            {"id" : "G", "subscriptions" : [
              {"displayPrice" : "1", "groupNumber" : -1, "productID" : "s", "recurringSubscriptionPeriod" : "1M",
               "type" : "RecurringSubscription",
               "codeOffers" : [{"eligibility" : ["vip"], "paymentMode" : "free", "subscriptionPeriod" : "P"}]}
            ]}
          ]
        }
        """
        let faults = TestSupport.faults(json)
        #expect(faults.map(\.path) == [
            "products[0].displayPrice",
            "products[1].productID",
            "products[1].type",
            "settings._storefront",
            "subscriptionGroups[0].subscriptions[0].groupNumber",
            "subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod",
            "subscriptionGroups[0].subscriptions[0].codeOffers[0].eligibility[0]",
            "subscriptionGroups[0].subscriptions[0].codeOffers[0].subscriptionPeriod",
        ])
        let error = CatalogError(faults: faults)
        #expect(error.description.split(separator: "\n").count == 8)
        #expect(error.description.hasPrefix(#"products[0].displayPrice: "4.9.9" is not a decimal price"#))
    }

    @Test func paidOfferWithoutPrice() {
        let json = """
        {"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "s", "type": "RecurringSubscription",
          "displayPrice": "1", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
          "introductoryOffer": {"paymentMode": "payUpFront", "subscriptionPeriod": "P3M"}}]}]}
        """
        #expect(TestSupport.faults(json).map(\.path) == ["subscriptionGroups[0].subscriptions[0].introductoryOffer.displayPrice"])
    }

    @Test func unknownKeysAreIgnored() throws {
        let json = #"{"future": 1, "products": [{"productID": "a", "type": "Consumable", "displayPrice": "1", "newKey": {"x": [null]}}], "settings": {"_newSwitch": true}}"#
        let catalog = try Catalog.decode(Data(json.utf8))
        #expect(catalog.products.count == 1)
    }

    /// Truncating a real catalog anywhere must give a fault, never a crash.
    @Test func truncationsNeverCrash() {
        let data = TestSupport.fixtureData("everything")
        #expect(data.count > 1000)
        var cut = 0
        while cut < data.count - 2 {
            let faults = TestSupport.faults(String(decoding: data.prefix(cut), as: UTF8.self))
            #expect(faults.count == 1 && faults.first?.path == "", "cut at \(cut)")
            cut += 97
        }
    }

    /// Seeded fuzz (set OPENSTORE_FUZZ_SEED to replay a run; every failure prints its seed): one
    /// value of the `everything` fixture gets a wrong JSON type, and the reader must report exactly
    /// one fault, at that value's path, saying what it expected and what it found.
    @Test func wrongTypeAnywhereIsReportedAtItsPath() throws {
        let seed = FuzzSeed.current()
        var random = SeededGenerator(seed: seed)
        let document = try JSONReader.parse(TestSupport.fixtureData("everything"))
        let leaves = FuzzLeaf.all(in: document)
        #expect(leaves.count > 100, "seed \(seed)")
        for _ in 0..<300 {
            let leaf = leaves[Int(random.next() % UInt64(leaves.count))]
            let replacement = leaf.wrongValue(using: &random)
            var text = ""
            CatalogWriter.write(document.replacing(at: leaf.steps, with: replacement), indent: 0, into: &text)
            let expected = CatalogFault(path: leaf.path, message: "expected \(leaf.expected), found \(replacement.typeName)")
            #expect(TestSupport.faults(text) == [expected], "seed \(seed): \(leaf.path) set to \(replacement.typeName)")
        }
    }

    /// Seeded fuzz: a random byte of a real catalog changed. The file loads, or it is refused with
    /// faults that each name the whole document (""), a place the original file has (a key that a
    /// changed byte made disappear is reported where it was), or a new element of one of its arrays
    /// (a blank turned into a digit inside `[ ]`).
    @Test func byteFlipsAreRefusedAtRealPaths() throws {
        let seed = FuzzSeed.current()
        var random = SeededGenerator(seed: seed)
        let data = TestSupport.fixtureData("everything")
        let paths = FuzzLeaf.paths(in: try JSONReader.parse(data))
        var refused = 0
        for _ in 0..<300 {
            var bytes = [UInt8](data)
            let index = Int(random.next() % UInt64(bytes.count))
            bytes[index] = UInt8(truncatingIfNeeded: random.next())
            let faults = TestSupport.faults(String(decoding: bytes, as: UTF8.self))
            if !faults.isEmpty { refused += 1 }
            for fault in faults {
                let array = fault.path.replacingOccurrences(of: #"\[[0-9]+\]$"#, with: "", options: .regularExpression)
                let named = fault.path.isEmpty || paths.contains(fault.path) || (array != fault.path && paths.contains(array))
                #expect(named, "seed \(seed): byte \(index) → \(fault)")
            }
        }
        #expect(refused > 0, "seed \(seed)")
    }

    @Test func jsonStringsAndNumbers() throws {
        let json = #"{"products": [{"productID": "caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \n", "type": "Consumable", "displayPrice": "1"}], "version": {"major": 3.0, "minor": 0}}"#
        let catalog = try Catalog.decode(Data(json.utf8))
        #expect(catalog.products.first?.id == "café 😀 \"q\" \\ / \n")
        #expect(catalog.formatVersion == CatalogVersion(major: 3, minor: 0))
        #expect(TestSupport.faults(#"{"identifier": "\ud83d"}"#).first?.message.contains("surrogate") == true)
        #expect(TestSupport.faults("{\"identifier\": \"a\tb\"}").first?.message.contains("control character") == true)
        #expect(TestSupport.faults(#"{"version": {"major": 01}}"#).first?.path == "")
        #expect(TestSupport.faults(#"{"version": {"major": 1.5}}"#) == [CatalogFault(path: "version.major", message: "expected an integer, found number 1.5")])
        // BOM is accepted.
        #expect(throws: Never.self) { try Catalog.decode(Data([0xEF, 0xBB, 0xBF] + Array(#"{"products":[]}"#.utf8))) }
    }

    @Test func localizationOtherRegion() {
        let product = CatalogProduct(id: "p", referenceName: "p", kind: .consumable, price: 1, localizations: [
            CatalogLocalization(locale: "en_US", displayName: "Hello", description: ""),
            CatalogLocalization(locale: "fr_FR", displayName: "Bonjour", description: ""),
        ])
        #expect(product.localization(for: "fr_CA")?.displayName == "Bonjour")
        #expect(product.localization(for: "fr")?.displayName == "Bonjour")
        #expect(product.localization(for: "es_ES")?.displayName == "Hello")
    }
}
