import Foundation
import Hummingbird
import StoreEngine
import StoreViews

/// The dashboard's pages (GET only; they change nothing). Each page is in its own file as an
/// extension: worlds and clock, customers, one customer, switches, notifications, events, keys,
/// charts.
struct ManagePages {
    let store: AppStore
    let jobs: AdvanceJobs
    /// Whether a sign-out button is shown (the store has an admin token).
    let signOut: Bool

    /// World time as people read it: `2026-11-23 04:07:55 UTC`.
    static func date(_ ms: Int64?) -> String {
        guard let ms else { return "—" }
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    nonisolated(unsafe) static let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
        return formatter
    }()

    static func dateTime(_ ms: Int64?) -> String {
        ms == nil ? "—" : date(ms) + " UTC"
    }

    /// The apps this store hosts, as (bundle ID, name) for pickers.
    var appOptions: [(String, String)] { store.apps.map { ($0.bundleId, "\($0.name) (\($0.bundleId))") } }

    /// The app a page is about: `app` from the query, else the first.
    func app(_ query: ManageQuery) throws -> StoreApp {
        if let bundleId = query["app"] { return try store.app(bundleId) }
        guard let first = store.apps.first else { throw StoreError.appNotFound("this store hosts no apps") }
        return first
    }

    /// A table's header row.
    static func head(_ html: HTMLWriter, _ titles: [String]) {
        html.element("thead") { html.element("tr") { for title in titles { html.element("th", [("scope", "col")], text: title) } } }
    }

    static func fields(_ html: HTMLWriter, _ pairs: [(String, String?)]) {
        html.element("dl", [("class", "mg-fields")]) {
            for (name, value) in pairs {
                guard let value else { continue }
                html.element("dt", text: name)
                html.element("dd", text: value)
            }
        }
    }
}
