import Foundation
import Hummingbird
import StoreEngine
import StoreViews
import StoreShared

/// The dashboard's pages (GET only; they change nothing). Each page is in its own file as an
/// extension: worlds and clock, customers, one customer, switches, notifications, events, keys,
/// charts.
struct ManagePages {
    let store: AppStore
    let jobs: AdvanceJobs
    /// Whether a sign-out button is shown (the store has an admin token).
    let signOut: Bool

    /// World time as people read it: `2026-11-23 04:07:55` (UTC). Written by hand: a page shows
    /// hundreds of dates, and a Foundation formatter costs microseconds each.
    static func date(_ ms: Int64?) -> String {
        guard let ms else { return "—" }
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(year)-\(two(month))-\(two(day)) \(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))"
    }

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
