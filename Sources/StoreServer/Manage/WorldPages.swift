import StoreShared
import Foundation
import Hummingbird
import StoreEngine
import StoreViews

/// Worlds: the list (create, reset, delete), one world's clock (now, rate, advance presets and a
/// free duration, pause and resume), and the progress of a long advance.
extension ManagePages {
    static let presets: [(String, String)] = [("PT1H", "1 hour"), ("P1D", "1 day"), ("P1W", "1 week"), ("P1M", "1 month"), ("P1Y", "1 year")]
    static let rates: [(String, String)] = [("", "Catalog default")] + AppleTimeRate.allCases.map { (String($0.rawValue), $0.name) }

    func worlds(_ query: ManageQuery) async throws -> Response {
        let worlds = await store.listWorlds()
        let back = query.url("")
        return ManageDocument.page("Worlds", query, section: .worlds) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Worlds")
            html.element("p", [("class", "mg-muted")], text: "Each world is an isolated store: its own customers, purchases, clock and switches.")
            html.element("div", [("class", "mg-scroll")]) {
                html.element("table", [("class", "mg-table")]) {
                    html.element("caption", [("class", "sk-visually-hidden")], text: "Worlds")
                    Self.head(html, ["World", "Now", "Rate", "Actions"])
                    html.open("tbody")
                    for world in worlds {
                        let there = ManageQuery(query: FormEncoding.query([("world", world.id), ("scheme", query.scheme == .automatic ? nil : query.scheme.rawValue)]))
                        html.element("tr") {
                            html.element("th", [("scope", "row")]) { html.element("a", [("href", there.url("world"))], text: world.id) }
                            html.element("td", text: Self.dateTime(world.nowMs))
                            html.element("td", text: world.clockSpeed == 0 ? "paused" : world.rate)
                            html.element("td") {
                                html.element("a", [("href", there.url("customers")), ("aria-label", "Customers of \(world.id)"), ("class", "mg-inline")], text: "Customers")
                                ManageForm.button(html, "reset-world", "Reset", name: "Reset world \(world.id)", query: there, back: back, kind: .destructive)
                                if world.id != AppStore.defaultWorld {
                                    ManageForm.button(html, "delete-world", "Delete", name: "Delete world \(world.id)", query: there, back: back, kind: .destructive)
                                }
                            }
                        }
                    }
                    html.close("tbody")
                }
            }
            html.element("h2", [("class", "sk-section-title")], text: "Create a world")
            ManageForm.open(html, "create-world", query: query, back: back, label: "Create a world")
            ManageForm.field(html, "id", label: "Name (A–Z, a–z, 0–9, - _ .)", id: "mg-new-world", required: true, maxLength: 64)
            ManageForm.select(html, "rate", label: "Time rate", id: "mg-new-rate", options: Self.rates, selected: "")
            ManageForm.submit(html, "Create world")
            html.close("form")
            if signOut {
                html.open("form", [("method", "post"), ("action", "/manage/logout"), ("data-sk-native", "1"), ("class", "mg-form")])
                ManageForm.submit(html, "Sign out", kind: .secondary)
                html.close("form")
            }
        }
    }

    func world(_ query: ManageQuery) async throws -> Response {
        let info = try await store.worldInfo(query.world)
        let back = query.url("world")
        let paused = info.clockSpeed == 0
        return ManageDocument.page("Clock of \(info.id)", query, section: .world) { html in
            html.element("h1", [("class", "sk-section-title")], text: "World \(info.id)")
            html.element("section", [("class", "mg-card"), ("aria-labelledby", "mg-clock-title")]) {
                html.element("h2", [("id", "mg-clock-title")], text: "Clock")
                html.element("p", [("class", "mg-clock"), ("id", "mg-now")], text: Self.dateTime(info.nowMs))
                Self.fields(html, [("Rate", paused ? "paused" : info.rate), ("World seconds per real second", paused ? "0" : String(info.clockSpeed)),
                                   ("Created", Self.dateTime(info.createdMs))])
                html.element("div", [("class", "mg-actions"), ("role", "group"), ("aria-label", "Advance presets")]) {
                    for (duration, title) in Self.presets {
                        ManageForm.button(html, "advance", "+ \(title)", name: "Advance the clock \(title)", query: query, back: back, fields: [("duration", duration)])
                    }
                }
                ManageForm.open(html, "advance", query: query, back: back, label: "Advance by a duration")
                ManageForm.field(html, "duration", label: "Advance by (ISO 8601, e.g. P2W, PT36H, or 45m, 3d)", id: "mg-duration", placeholder: "P1M", required: true, maxLength: 40)
                ManageForm.submit(html, "Advance")
                html.close("form")
                ManageForm.button(html, paused ? "resume" : "pause", paused ? "Resume clock" : "Pause clock", query: query, back: back, kind: .secondary)
                ManageForm.open(html, "rate", query: query, back: back, label: "Change the time rate")
                ManageForm.select(html, "rate", label: "Time rate", id: "mg-rate", options: Array(Self.rates.dropFirst()), selected: nil)
                ManageForm.field(html, "multiplier", label: "or a multiplier (e.g. 720x)", id: "mg-multiplier", maxLength: 20)
                ManageForm.submit(html, "Set rate")
                html.close("form")
            }
            html.element("ul", [("class", "mg-legend")]) {
                for section in [ManageDocument.Section.customers, .settings, .notifications, .events, .keys, .charts] {
                    html.element("li") { html.element("a", [("href", query.url(section.rawValue))], text: section.title) }
                }
            }
        }
    }

    /// A long advance catching up: refreshes itself (no script needed) until done.
    func progress(_ query: ManageQuery) async throws -> Response {
        guard let id = query["job"], let job = jobs.job(id) else {
            throw RequestError(status: 404, code: "notFound", message: "There is no clock advance with that ID (it may be from before a restart).")
        }
        var there = query
        there.world = job.world
        if job.finished {
            let notice: PageRenderer.Notice = job.failure.map { .init("The clock did not advance: \($0)", isError: true) }
                ?? .init("The clock advanced \(job.duration); every renewal, retry and expiry that fell due has fired.")
            return HTMLResponse.seeOther(there.url("world", notice: notice))
        }
        let percent = Int((job.fraction * 100).rounded(.down))
        return ManageDocument.page("Advancing \(job.world)", there, section: .world) { html in
            html.trusted("<meta http-equiv=\"refresh\" content=\"1\">")
            html.element("h1", [("class", "sk-section-title")], text: "Advancing the clock \(job.duration)")
            html.element("label", [("for", "mg-progress")], text: "Caught up \(percent)%")
            html.element("progress", [("id", "mg-progress"), ("max", "100"), ("value", String(percent))], text: "\(percent)%")
            html.element("p", [("class", "mg-muted")]) {
                html.text("Every event that falls due fires in order. This page refreshes itself; ")
                html.element("a", [("href", there.url("progress", [("job", id)]))], text: "refresh now")
                html.text(".")
            }
        }
    }
}
