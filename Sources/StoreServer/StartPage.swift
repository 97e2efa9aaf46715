import Hummingbird
import StoreEngine
import StoreViews

/// `GET /`: what someone who opens the store in a browser sees first, with the way to the store
/// pages and to the API documents.
struct StartPage {
    let store: AppStore

    func register(on router: Router<StoreRequestContext>) {
        router.get("/") { request, _ in response(StorePageQuery(query: request.uri.query)) }
    }

    func response(_ query: StorePageQuery) -> Response {
        let apps = store.apps.map { "\($0.name) (\($0.bundleId), \($0.environment.rawValue), \($0.catalog.products.count) products)" }
        return HTMLResponse.info("OpenStoreKit", [
            .paragraph("A local App Store serving: " + (apps.isEmpty ? "no apps." : apps.joined(separator: "; ") + ".")),
            .links([
                .init(title: "Store pages", url: "/store", summary: "StoreView, ProductView and SubscriptionStoreView on the web; purchases go through the store."),
                .init(title: "Transaction Manager", url: "/manage", summary: "Worlds, clocks, customers and their transactions, notifications, events, API keys and charts; refund, expire, renew and more."),
                .init(title: "OpenAPI document", url: "/openapi.json", summary: "The device API, the admin API and the store pages' routes."),
                .init(title: "Health", url: "/healthz", summary: "Liveness check."),
            ]),
        ], query: query)
    }
}
