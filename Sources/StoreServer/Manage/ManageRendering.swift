import StoreShared
import StoreEngine

/// The dashboard's customer page rendered without HTTP: what `GET /manage/customer` does between
/// reading the request and writing the response (engine reads, signing the page's transactions,
/// HTML). For the benchmark (`openstore-bench --only manage`), which also times the two halves.
public enum ManageRendering {
    /// A customer's Transaction Manager page as HTML (the benchmark times it).
    public static func customerPage(store: AppStore, customer: String, bundleId: String, world: String) async throws -> String {
        try await customerPageData(store: store, customer: customer, bundleId: bundleId, world: world).html()
    }

    /// The reads of the customer page, ready to be written as HTML.
    public static func customerPageData(store: AppStore, customer: String, bundleId: String, world: String) async throws -> CustomerPage {
        let query = ManageQuery(query: FormEncoding.query([("world", world), ("id", customer), ("app", bundleId)]))
        let pages = ManagePages(store: store, jobs: AdvanceJobs(), signOut: false)
        return CustomerPage(data: try await pages.customerData(query), query: query, apps: pages.appOptions)
    }

    /// A customer page's data, read; `html()` writes it.
    public struct CustomerPage {
        let data: ManagePages.CustomerData
        let query: ManageQuery
        let apps: [(String, String)]

        /// The page as HTML.
        public func html() -> String { ManagePages.customerHTML(data, query: query, apps: apps) }
    }
}
