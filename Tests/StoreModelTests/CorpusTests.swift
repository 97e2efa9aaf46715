import Foundation
import Testing
@testable import StoreModel

/// The corpus (Fixtures/corpus, INDEX.md there): real `.storekit` files from public app and SDK
/// repositories. Every one loads, the corpus covers what Xcode writes, a catalog written back with
/// `storekitDocument()` reads back the same, and other formats are refused with a path.
struct CorpusTests {
    static let folder: URL? = Bundle.module.url(forResource: "corpus", withExtension: nil, subdirectory: "Fixtures")

    static var files: [URL] {
        guard let folder else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".storekit") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func read(_ url: URL) throws -> CatalogReading {
        try Catalog.read(contentsOf: url)
    }

    @Test func theIndexListsEveryFileWithItsSourceAndLicence() throws {
        let folder = try #require(Self.folder)
        let index = try String(contentsOf: folder.appendingPathComponent("INDEX.md"), encoding: .utf8)
        let rows = index.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let listed = rows.map { row in String(row.split(separator: "`")[1]) }
        #expect(listed.sorted() == Self.files.map(\.lastPathComponent))
        #expect(Self.files.count >= 30)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count >= 5, "\(row)")
            guard cells.count >= 5 else { continue }
            #expect(cells[1].contains("/"), "repository of \(cells[0])")
            #expect(cells[2].count == 42, "40-hex commit of \(cells[0])")
            #expect(cells[3].hasSuffix(".storekit`"), "path of \(cells[0])")
            #expect(cells[4].hasPrefix("MIT") || cells[4].hasPrefix("BSD"), "licence of \(cells[0])")
        }
        let repositories = Set(rows.map { $0.split(separator: "|")[1].trimmingCharacters(in: .whitespaces) })
        #expect(repositories.count >= 10)
    }

    /// Every Xcode-format file of the corpus loads. Only the one real oddity of the corpus (three
    /// groups sharing an ID) gives warnings.
    @Test(arguments: CorpusTests.files.map(\.lastPathComponent))
    func everyFileLoads(_ name: String) throws {
        let url = try #require(Self.folder).appendingPathComponent(name)
        let reading = try Self.read(url)
        if name == "revenuecat-kmp_app201bda4dab-minified.storekit" {
            #expect(reading.warnings.map(\.path) == ["subscriptionGroups[1].id", "subscriptionGroups[2].id"])
        } else {
            #expect(reading.warnings == [])
        }
        // What the file holds is what the catalog holds: every productID in it, once.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        let groups = json["subscriptionGroups"] as? [[String: Any]] ?? []
        var ids = ((json["products"] as? [[String: Any]] ?? []) + (json["nonRenewingSubscriptions"] as? [[String: Any]] ?? []))
            .compactMap { $0["productID"] as? String }
        ids += groups.flatMap { ($0["subscriptions"] as? [[String: Any]] ?? []).compactMap { $0["productID"] as? String } }
        #expect(reading.catalog.products.map(\.id).sorted() == ids.sorted())
        #expect(reading.catalog.subscriptionGroups.count == groups.count)
    }

    /// The corpus covers what Xcode writes: format versions 1 to 5, every product type and offer
    /// kind, localizations, storefronts, synced files and simulated errors.
    @Test func theCorpusCoversTheFormat() throws {
        let catalogs = try Self.files.map { try Self.read($0).catalog }
        #expect(Set(catalogs.compactMap { $0.formatVersion?.major }) == [1, 2, 3, 4, 5])
        #expect(Set(catalogs.flatMap { $0.products.map(\.kind) }) == Set(ProductKind.allCases))
        let offers = catalogs.flatMap { $0.products.flatMap { $0.subscription?.allOffers ?? [] } }
        #expect(Set(offers.map(\.kind)) == Set(OfferKind.allCases))
        #expect(Set(offers.map(\.paymentMode)) == Set(PaymentMode.allCases))
        #expect(offers.contains { !$0.eligibility.isEmpty })
        let locales = Set(catalogs.flatMap { $0.products.flatMap { $0.localizations.map(\.locale) } })
        #expect(locales.isSuperset(of: ["en_US", "en_GB", "es_ES", "ar"]))
        #expect(Set(catalogs.map(\.settings.storefront)).isSuperset(of: ["USA", "ESP"]))
        #expect(catalogs.contains { $0.settings.lastSynchronizedDate != nil && $0.settings.applicationInternalID != nil })
        #expect(catalogs.contains { $0.settings.storeKitErrors.contains { $0.current != nil } })
        #expect(catalogs.contains { !$0.settings.compatibilityTimeRate.isEmpty })
        #expect(catalogs.contains { $0.appPolicies != nil })
        #expect(catalogs.contains { $0.subscriptionGroups.count > 2 })
        #expect(catalogs.contains { $0.products.isEmpty })
        #expect(catalogs.contains { catalog in catalog.products.contains { $0.familyShareable } })
    }

    /// Round trip, over the whole corpus: the catalog written back as a `.storekit` document (what
    /// `openstore catalog show --json` prints) reads back as the same catalog, without warnings,
    /// and writing that again gives the same text.
    @Test(arguments: CorpusTests.files.map(\.lastPathComponent))
    func roundTrip(_ name: String) throws {
        let catalog = try Self.read(try #require(Self.folder).appendingPathComponent(name)).catalog
        let document = catalog.storekitDocument()
        let again = try Catalog.read(Data(document.utf8))
        #expect(again.catalog == catalog)
        #expect(again.warnings == [])
        #expect(again.catalog.storekitDocument() == document)
        // It is plain JSON any tool reads, in Xcode's shape.
        let json = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
        #expect(json?["products"] is [Any] && json?["subscriptionGroups"] is [Any] && json?["settings"] is [String: Any])
    }

    /// Other formats are refused, each fault with the path it concerns.
    @Test func otherFormatsAreRefusedWithAPath() throws {
        let folder = try #require(Self.folder).appendingPathComponent("not-xcode")
        func faults(_ name: String) -> [CatalogFault] {
            do {
                _ = try Catalog.read(contentsOf: folder.appendingPathComponent(name))
                return []
            } catch {
                return error.faults
            }
        }
        let plist = faults("products-plist.storekit")
        #expect(plist.count == 1 && plist.first?.path == "")
        #expect(plist.first?.message.hasPrefix("invalid JSON at line 1, column 1") == true)
        #expect(faults("product-array.json") == [CatalogFault(path: "", message: "expected a JSON object at the top level, found array")])
        #expect(faults("app-store-connect-response.json").map(\.path) == [""])
        #expect(faults("app-store-connect-response.json").first?.message.hasPrefix("not an Xcode StoreKit configuration") == true)
        #expect(faults("products-by-id.json") == [CatalogFault(path: "products", message: "expected an array, found object")])
        #expect(faults("play-billing-products.json") == [
            CatalogFault(path: "products[0].type", message: #""inapp" is not a product type (Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription)"#),
            CatalogFault(path: "products[0].productID", message: "required key is missing"),
            CatalogFault(path: "products[0].displayPrice", message: "required key is missing"),
        ])
    }
}
