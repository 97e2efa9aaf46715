import Testing
import StoreModel
@testable import StoreViews

@Suite struct SmokeTests {
    @Test func rendersSomething() {
        let catalog = DemoCatalogs.backyardBirds
        let products = Product.products(of: catalog, storefront: .unitedStates)
        let html = PageRenderer.fragment(StoreView(ids: products.map(\.id)), store: StoreSnapshot(products: products))
        #expect(html.contains("sk-store"))
    }
}
