import Foundation
import Testing
@testable import StoreModel

struct CatalogTableTests {
    @Test func backyardBirdsTable() throws {
        let catalog = try Catalog.decode(Data(DemoCatalogs.backyardBirds.utf8))
        let text = CatalogTable.render(catalog, storefront: Storefront.unitedStates)
        for product in catalog.products {
            #expect(text.contains(product.id))
        }
        #expect(text.contains("$11.99"))
        #expect(text.contains("$0.99"))
        #expect(text.contains("Backyard Birds Pass (BB0PASS1)"))
        #expect(text.contains("LEVEL"))
        // Group rows are ordered by level and start with the level.
        let groupRows = text.split(separator: "\n").filter { $0.hasPrefix("  1 ") || $0.hasPrefix("  2 ") || $0.hasPrefix("  3 ") }
        #expect(groupRows.count == 3)
        #expect(groupRows.first?.contains("pass.premium") == true)
        #expect(groupRows.last?.contains("pass.individual") == true)
        #expect(text.contains("free trial"))
        #expect(text.contains("win-back"))
        #expect(text.contains("P1M x 2"))
        #expect(!text.split(separator: "\n").contains { $0.hasSuffix(" ") })
    }

    @Test func localizedForStorefront() throws {
        let catalog = try Catalog.decode(Data(DemoCatalogs.backyardBirds.utf8))
        let storefront = try #require(Storefront.lookup("FRA"))
        let text = CatalogTable.render(catalog, storefront: storefront)
        #expect(text.contains("Graines de tournesol"))
        #expect(text.contains("11,99\u{00A0}€"))
        #expect(text.contains("Pass Backyard Birds"))
    }

    @Test func emptyCatalog() {
        let text = CatalogTable.render(Catalog(), storefront: Storefront.unitedStates)
        #expect(text.contains("Products (0)"))
        #expect(text.contains("none"))
    }
}
