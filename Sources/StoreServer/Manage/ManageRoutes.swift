import Foundation
import StoreShared
import Hummingbird
import StoreEngine
import StoreViews

/// The Transaction Manager on the web (`/manage`): worlds and their clocks, customers, one
/// customer's transactions with the Transaction Manager's actions beside them, switches,
/// notifications, events, API keys and charts. Server-rendered HTML with the store pages'
/// stylesheet; every action is a POST to `/manage/actions` that calls the same engine method as
/// the admin API, then redirects back (Post/Redirect/Get). Guarded by `ManageAccess`.
struct ManageRoutes {
    let store: AppStore
    let token: String?
    let jobs = AdvanceJobs()

    func register(on router: Router<StoreRequestContext>) {
        router.get("manage/login") { request, _ in login(request) }
        router.post("manage/login") { request, _ in try await signIn(request) }
        router.post("manage/logout") { request, _ in
            guard SameOriginGuard.allows(request) else { return crossSite(ManageQuery(query: nil)) }
            var response = HTMLResponse.seeOther("/manage/login")
            response.headers[.setCookie] = ManageAccess.cookie(nil)
            return response
        }
        let manage = router.group("manage").add(middleware: ManageAccess(token: token))
        let pages = ManagePages(store: store, jobs: jobs, signOut: token != nil)
        manage.get { request, context in await html(request, context) { try await pages.worlds($0) } }
        manage.get("world") { request, context in await html(request, context) { try await pages.world($0) } }
        manage.get("progress") { request, context in await html(request, context) { try await pages.progress($0) } }
        manage.get("customers") { request, context in await html(request, context) { try await pages.customers($0) } }
        manage.get("customer") { request, context in await html(request, context) { try await pages.customer($0) } }
        manage.get("settings") { request, context in await html(request, context) { try await pages.settings($0) } }
        manage.get("notifications") { request, context in await html(request, context) { try await pages.notifications($0) } }
        manage.get("events") { request, context in await html(request, context) { try await pages.events($0) } }
        manage.get("events/stream") { request, _ in 
            try await EventStream(store: store).response(ManageQuery(query: request.uri.query), lastEventId: request.headers[.init("Last-Event-ID")!]) }
        manage.get("keys") { request, context in await html(request, context) { try await pages.keys($0) } }
        manage.get("charts") { request, context in await html(request, context) { try await pages.charts($0) } }
        manage.post("actions") { request, context in
            await html(request, context) { query in
                guard SameOriginGuard.allows(request) else { return crossSite(query) }
                let form = try await request.formFields()
                return try await ManageActions(store: store, jobs: jobs, form: form, scheme: query.scheme).perform()
            }
        }
    }

    func crossSite(_ query: ManageQuery) -> Response {
        ManageDocument.page("Forbidden", query, section: nil, status: .forbidden) { html in
            html.element("h1", text: "Forbidden")
            html.element("p", text: "This form was posted from another site. The Transaction Manager accepts forms from its own pages only.")
        }
    }

    func login(_ request: Request) -> Response {
        let query = ManageQuery(query: request.uri.query)
        let next = ManageQuery.safeBack(query["next"]) ?? "/manage"
        return ManageDocument.page("Sign in", query, section: nil) { html in
            html.element("h1", text: "Transaction Manager: sign in")
            if token == nil {
                html.element("p", text: "This store has no admin token: the Transaction Manager is open on loopback and closed to other machines.")
                html.element("a", [("href", next)], text: "Continue")
                return
            }
            html.open("form", [("method", "post"), ("action", "/manage/login"), ("class", "mg-form"), ("data-sk-native", "1")])
            ManageForm.hidden(html, "next", next)
            ManageForm.field(html, "token", label: "Admin token (openstore serve --admin-token)", id: "mg-token", required: true, type: "password", maxLength: 4096)
            ManageForm.submit(html, "Sign in")
            html.close("form")
        }
    }

    func signIn(_ request: Request) async throws -> Response {
        let query = ManageQuery(query: request.uri.query)
        guard SameOriginGuard.allows(request) else { return crossSite(query) }
        let form = try await request.formFields()
        let next = ManageQuery.safeBack(form["next"]) ?? "/manage"
        guard let token, let presented = form["token"], ConstantTime.equal(presented, token) else {
            return ManageDocument.page("Sign in", query, section: nil, status: .unauthorized) { html in
                html.element("h1", text: "Sign in")
                html.element("p", [("class", "sk-error"), ("role", "alert")], text: "That is not the admin token.")
                html.element("a", [("href", "/manage/login?" + FormEncoding.query([("next", next)]))], text: "Try again")
            }
        }
        var response = HTMLResponse.seeOther(next)
        response.headers[.setCookie] = ManageAccess.cookie(token)
        return response
    }

    /// Runs a handler and answers every failure as a readable page.
    func html(_ request: Request, _ context: StoreRequestContext, _ handler: (ManageQuery) async throws -> Response) async -> Response {
        let query = ManageQuery(query: request.uri.query)
        func failure(_ status: Int, _ message: String) -> Response {
            var plain = query
            plain.notice = nil
            let code = HTMLResponse.refusalStatus(status, for: request)
            return ManageDocument.page(HTMLResponse.title(code), plain, section: nil, status: code) { html in
                html.element("h1", text: HTMLResponse.title(code))
                html.element("p", [("role", "alert")], text: message)
                html.element("a", [("href", plain.url(""))], text: "All worlds")
            }
        }
        do {
            return try await handler(query)
        } catch let error as StoreError {
            return failure(error.httpStatus, error.message)
        } catch let error as RequestError {
            var response = failure(error.statusCode, error.message)
            if error.statusCode == 413 { response.headers[.connection] = "close" }
            return response
        } catch let error as OfferError {
            return failure(error.httpStatus, error.message)
        } catch {
            context.noteElsewhere(error)
            context.logger.error("dashboard page failed: \(error)")
            return failure(500, "The store failed to show this page.")
        }
    }
}
