import StoreShared
import Foundation
import Hummingbird
import StoreEngine
import StoreModel
import StoreViews

/// The merchandising views on the web (`/store`): each registered `StorePage` rendered for one
/// customer of one world, with buttons that purchase through the engine. Forms post to
/// `/store/{pageId}/actions`, which answers `303 See Other` back to the page (Post/Redirect/Get),
/// so everything works with JavaScript off. Translation only: data comes from
/// `StoreSnapshotLoader`, purchases from `StorePageActions`.
struct StorePageRoutes {
    let store: AppStore
    /// Pages whose app this store serves, in registry order.
    let pages: [StorePage]
    let offerings: OfferingSource?

    init(store: AppStore, pages: [StorePage], offerings: OfferingSource? = nil) {
        self.store = store
        self.pages = pages.filter { (try? store.app($0.bundleId)) != nil }
        self.offerings = offerings
    }

    func register(on router: Router<StoreRequestContext>) {
        router.get("store") { request, context in await html(request, context) { try await index($0) } }
        router.get("store/:pageId") { request, context in await html(request, context) { try await show(context, $0) } }
        router.post("store/:pageId/actions") { request, context in await html(request, context) { try await act(request, context, $0) } }
        router.get("store/:pageId/terms") { request, context in await html(request, context) { try await terms(context, $0) } }
        router.get("store/:pageId/privacy") { request, context in await html(request, context) { try await privacy(context, $0) } }
    }

    // MARK: Pages

    func index(_ query: StorePageQuery) async throws -> Response {
        let known = try await store.world(query.world).knownCustomers()
        let entries = pages.map { InfoPageView.Entry(title: $0.title, url: query.pageURL($0.id), summary: $0.summary) }
        return HTMLResponse.info(
            "Store pages", [.paragraph("StoreKit's merchandising views, selling from this store's catalogs. Purchases are real purchases for the customer below."), .links(entries)],
            query: query, header: AnyView(CustomerPickerView(formURL: "/store", query: query, knownCustomers: known)))
    }

    func show(_ context: StoreRequestContext, _ query: StorePageQuery) async throws -> Response {
        let page = try page(context)
        let snapshot = try await snapshot(page, query)
        let picker = CustomerPickerView(formURL: "/store/\(FormEncoding.escape(page.id))", query: query,
                                        knownCustomers: try await context.world(query.world, in: store).knownCustomers())
        return HTMLResponse.page(render(page, snapshot, query, header: AnyView(picker)).html)
    }

    /// A pressed button: the page renders again with fresh data so the button finds its action,
    /// as a SwiftUI button finds its closure; the outcome travels to the page in the redirect.
    func act(_ request: Request, _ context: StoreRequestContext, _ query: StorePageQuery) async throws -> Response {
        guard SameOriginGuard.allows(request) else {
            return HTMLResponse.error(.forbidden, "This form was posted from another site. Store pages accept forms from their own pages only.", query: query)
        }
        let page = try page(context)
        let form = try await request.formFields()
        guard let name = form["action"], !name.isEmpty else { throw RequestError.malformed("The form names no action.") }
        // The page's actions only: no customer picker (a GET form, no actions) and its customer list.
        let session = render(page, try await snapshot(page, query), query, header: nil).session
        guard let action = session.actions.resolve(action: name, selectedProduct: form["product"], code: form["code"]) else {
            let what = name == "subscribe" ? "no plan \"\(form["product"] ?? "")\" to subscribe to" : "no action \"\(name)\""
            throw RequestError.malformed("This page has \(what); it may have changed since it was shown. Reload it and try again.")
        }
        let outcome = await StorePageActions(store: store, bundleId: page.bundleId, customer: query.customer, world: query.world,
                                             misses: context.facts.misses, logger: context.logger).perform(action, session: session)
        let target = outcome.dismissed ? query.indexURL(notice: outcome.notice, result: outcome.result)
            : query.pageURL(page.id, notice: outcome.notice, result: outcome.result)
        return HTMLResponse.seeOther(target, result: outcome.result)
    }

    /// The catalog's custom EULA, or Apple's standard one.
    func terms(_ context: StoreRequestContext, _ query: StorePageQuery) async throws -> Response {
        let page = try page(context)
        guard let eula = try store.app(page.bundleId).catalog.appPolicies?.customEULA else {
            return HTMLResponse.seeOther(AppPolicies.standardEULA)
        }
        return HTMLResponse.info("Terms of Service", [.text(eula), backLink(page, query)], query: query)
    }

    /// The privacy policy for the customer's locale: its link, or its text when it has no link.
    func privacy(_ context: StoreRequestContext, _ query: StorePageQuery) async throws -> Response {
        let page = try page(context)
        let catalog = try store.app(page.bundleId).catalog
        let locale = try await context.world(query.world, in: store).customer(query.customer)?.locale ?? catalog.settings.locale
        guard let policy = catalog.appPolicies?.privacyPolicy(for: locale) else {
            throw RequestError(status: 404, code: "notFound", message: "\(page.title) has no privacy policy in its catalog.")
        }
        if policy.text.isEmpty, AppPolicyLinks.isWebAddress(policy.url) {
            return HTMLResponse.seeOther(policy.url)
        }
        return HTMLResponse.info("Privacy Policy", [.text(policy.text.isEmpty ? policy.url : policy.text), backLink(page, query)], query: query)
    }

    // MARK: Helpers

    func page(_ context: StoreRequestContext) throws -> StorePage {
        let id = try context.pathValue("pageId")
        guard let page = pages.first(where: { $0.id == id }) else {
            throw RequestError(status: 404, code: "notFound", message: "There is no store page \"\(id)\".")
        }
        return page
    }

    func snapshot(_ page: StorePage, _ query: StorePageQuery) async throws -> StoreSnapshot {
        var snapshot = try await StoreSnapshotLoader(store: store).load(
            bundleId: page.bundleId, customer: query.customer, world: query.world,
            policyPages: .init(terms: query.termsURL(page.id), privacy: query.privacyURL(page.id)))
        if let offerings { snapshot.offering = await offerings(page.bundleId, query.customer) }
        return snapshot
    }

    func render(_ page: StorePage, _ snapshot: StoreSnapshot, _ query: StorePageQuery, header: AnyView?) -> PageRenderer.Rendered {
        PageRenderer.render(page.make(), store: snapshot, options: .init(
            title: page.title, colorScheme: query.scheme, actionURL: query.actionURL(page.id), phase: query.phase,
            notice: query.notice, header: header))
    }

    func backLink(_ page: StorePage, _ query: StorePageQuery) -> InfoPageView.Block {
        .links([.init(title: "Back to \(page.title)", url: query.pageURL(page.id), summary: "")])
    }

    /// Runs a handler and answers every failure as a readable page, never as JSON or a bare 500.
    func html(_ request: Request, _ context: StoreRequestContext, _ handler: (StorePageQuery) async throws -> Response) async -> Response {
        let query = StorePageQuery(query: request.uri.query)
        do {
            var response = try await handler(query)
            if request.method == .get, response.status == .ok, let result = query.result { response.headers[HTMLResponse.resultHeader] = result }
            return response
        } catch let error as StoreError {
            return HTMLResponse.error(HTMLResponse.refusalStatus(error.httpStatus, for: request), error.message, query: query)
        } catch let error as RequestError {
            var response = HTMLResponse.error(HTMLResponse.refusalStatus(error.statusCode, for: request), error.message, query: query)
            if error.statusCode == 413 { response.headers[.connection] = "close" }
            return response
        } catch {
            context.noteElsewhere(error)
            context.recordFailure(error)
            return HTMLResponse.error(.internalServerError, "The store failed to show this page.", query: query)
        }
    }
}
