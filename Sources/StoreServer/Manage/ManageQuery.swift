import StoreShared
import Foundation
import StoreEngine
import StoreViews

/// Where a dashboard page is and how it is shown, from its query string: the world, the colour
/// scheme, and the notice a redirect after an action carries. Every link and form of a page
/// carries the world and scheme on.
struct ManageQuery {
    var world: String
    var scheme: PageRenderer.ColorScheme
    var notice: PageRenderer.Notice?
    var fields: [String: String]

    init(query: String?) {
        fields = FormEncoding.fields(query)
        let world = fields["world"]?.trimmingCharacters(in: .whitespaces) ?? ""
        self.world = world.isEmpty ? AppStore.defaultWorld : world
        scheme = fields["scheme"].flatMap(PageRenderer.ColorScheme.init(rawValue:)) ?? .automatic
        notice = StorePageQuery.notice(fields)
    }

    subscript(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// `/manage/{page}?world=…&scheme=…&extra…`.
    func url(_ page: String, _ extra: [(String, String?)] = [], world: String? = nil, notice: PageRenderer.Notice? = nil) -> String {
        let path = page.isEmpty ? "/manage" : "/manage/\(page)"
        let pairs: [(String, String?)] = [("world", world ?? self.world), ("scheme", scheme == .automatic ? nil : scheme.rawValue)]
            + extra + [("notice", notice.flatMap { $0.isError ? nil : $0.text }), ("error", notice.flatMap { $0.isError ? $0.text : nil })]
        let query = FormEncoding.query(pairs)
        return query.isEmpty ? path : path + "?" + query
    }

    /// A dashboard address a form may send the browser back to: same-site `/manage…` paths only.
    static func safeBack(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/manage"), !value.hasPrefix("//"), !value.contains("\\"),
              !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return value
    }

    /// `back` with the notice of an action put in its query (replacing an older one).
    static func back(_ back: String, notice: PageRenderer.Notice) -> String {
        let parts = back.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var pairs = FormEncoding.decode(parts.count > 1 ? String(parts[1]) : nil).filter { $0.0 != "notice" && $0.0 != "error" }
        pairs.append((notice.isError ? "error" : "notice", String(notice.text.prefix(StorePageQuery.maxNoticeLength))))
        return String(parts[0]) + "?" + FormEncoding.query(pairs.map { ($0.0, $0.1) })
    }
}
