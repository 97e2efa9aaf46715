import StoreShared
import Foundation
import StoreEngine
import StoreViews

/// Who a store page is shown to and how, from its query string (`customer`, `world`, `scheme`,
/// `phase`, and the `notice`/`error` a redirect after an action carries). Every link and form a
/// page writes carries the customer, world and scheme on, so a page of world A never turns into
/// a page of world B.
struct StorePageQuery {
    static let defaultCustomer = "demo-customer"
    /// Notices come from the URL, so anyone can craft one: keep them short.
    static let maxNoticeLength = 300

    var customer: String
    var world: String
    var scheme: PageRenderer.ColorScheme
    var phase: RenderPhase
    var notice: PageRenderer.Notice?
    /// The `X-OpenStore-Result` of the action that redirected here. `fetch` follows redirects and
    /// shows the page's script only the final response, so the page repeats the header.
    var result: String?

    static let results: Set<String> = ["purchased", "pending", "failed", "cancelled", "restored", "redeemed", "dismissed", "done"]

    init(customer: String = Self.defaultCustomer, world: String = AppStore.defaultWorld, scheme: PageRenderer.ColorScheme = .automatic,
         phase: RenderPhase = .loaded, notice: PageRenderer.Notice? = nil) {
        self.customer = customer
        self.world = world
        self.scheme = scheme
        self.phase = phase
        self.notice = notice
    }

    init(query: String?) {
        let fields = FormEncoding.fields(query)
        let customer = fields["customer"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let world = fields["world"]?.trimmingCharacters(in: .whitespaces) ?? ""
        self.init(
            customer: customer.isEmpty ? Self.defaultCustomer : customer,
            world: world.isEmpty ? AppStore.defaultWorld : world,
            scheme: fields["scheme"].flatMap(PageRenderer.ColorScheme.init(rawValue:)) ?? .automatic,
            phase: fields["phase"] == RenderPhase.loading.rawValue ? .loading : .loaded,
            notice: Self.notice(fields))
        result = fields["result"].flatMap { Self.results.contains($0) ? $0 : nil }
    }

    static func notice(_ fields: [String: String]) -> PageRenderer.Notice? {
        if let error = fields["error"], !error.isEmpty { return .init(String(error.prefix(maxNoticeLength)), isError: true) }
        if let notice = fields["notice"], !notice.isEmpty { return .init(String(notice.prefix(maxNoticeLength))) }
        return nil
    }

    /// The fields that identify the viewer, in URL order; the default scheme is left out.
    var identity: [(String, String?)] {
        [("customer", customer), ("world", world), ("scheme", scheme == .automatic ? nil : scheme.rawValue)]
    }

    /// `/store/{pageId}?customer=…&world=…`, with the notice or error and result of an action.
    func pageURL(_ pageId: String, notice: PageRenderer.Notice? = nil, result: String? = nil) -> String {
        "/store/\(FormEncoding.escape(pageId))?" + FormEncoding.query(identity + outcome(notice, result))
    }

    /// Where the page's forms post.
    func actionURL(_ pageId: String) -> String {
        "/store/\(FormEncoding.escape(pageId))/actions?" + FormEncoding.query(identity)
    }

    func indexURL(notice: PageRenderer.Notice? = nil, result: String? = nil) -> String {
        "/store?" + FormEncoding.query(identity + outcome(notice, result))
    }

    func outcome(_ notice: PageRenderer.Notice?, _ result: String?) -> [(String, String?)] {
        [("notice", notice.flatMap { $0.isError ? nil : $0.text }), ("error", notice.flatMap { $0.isError ? $0.text : nil }), ("result", result)]
    }

    func termsURL(_ pageId: String) -> String { "/store/\(FormEncoding.escape(pageId))/terms?" + FormEncoding.query(identity) }
    func privacyURL(_ pageId: String) -> String { "/store/\(FormEncoding.escape(pageId))/privacy?" + FormEncoding.query(identity) }
}
