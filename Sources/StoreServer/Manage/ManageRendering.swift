import StoreEngine

/// The dashboard's customer page rendered without HTTP: what `GET /manage/customer` does between
/// reading the request and writing the response (engine reads, signing the page's transactions,
/// HTML). For the benchmark (`openstore-bench --only manage`).
public enum ManageRendering {
    public static func customerPage(store: AppStore, customer: String, bundleId: String, world: String = AppStore.defaultWorld) async throws -> String {
        let query = ManageQuery(query: FormEncoding.query([("world", world), ("id", customer), ("app", bundleId)]))
        let pages = ManagePages(store: store, jobs: AdvanceJobs(), signOut: false)
        return ManagePages.customerHTML(try await pages.customerData(query), query: query, apps: pages.appOptions)
    }
}
