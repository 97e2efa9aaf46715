import Foundation
import StoreEngine
import StoreViews
import StoreShared

/// A subscription's history on a time axis, as inline SVG. Each bar is a run of periods
/// (`SubscriptionRun`: renewals of one product back to back, counted, "×96" on the bar), so a
/// customer renewed monthly for years draws a few bars, not a thousand; past periods are grey,
/// revoked periods red, the current period in the state's colour. A gap between bars is time without
/// a period. After the last period, billing retry (red, up to now) or the grace period (orange,
/// up to its end) is drawn as its own bar; "now" is a line. The text alternative says all of it
/// in words; each bar's title names its transactions, product and dates, and the transactions
/// below list every field.
struct SubscriptionTimeline {
    /// Runs drawn per subscription (the newest); the summary counts the rest.
    static let maxRuns = 60

    let originalId: Int64
    let runs: [SubscriptionRun]
    let nowMs: Int64
    /// The subscription's state as the page names it: active, grace, billing-retry, expired, revoked.
    let state: String
    let gracePeriodEndsMs: Int64?

    /// The runs of this subscription, oldest first (the history lists them by original transaction).
    var chain: ArraySlice<SubscriptionRun> {
        guard let first = runs.firstIndex(where: { $0.originalId == originalId }) else { return [] }
        let end = runs[first...].firstIndex(where: { $0.originalId != originalId }) ?? runs.endIndex
        return runs[max(first, end - Self.maxRuns)..<end]
    }

    func draw(_ html: HTMLWriter) {
        let shown = chain
        guard let first = shown.first, let last = shown.last else { return }
        let all = runs.lazy.filter { $0.originalId == originalId }
        let periods = all.reduce(0) { $0 + $1.periods }, runCount = all.count, revoked = all.filter { $0.revokedMs != nil }.count
        let latestEnd = shown.reduce(Int64.min) { max($0, $1.endMs) }
        // What follows the last period: billing retry until it ends, the grace period until its end.
        let retrying = (state == "billing-retry" || state == "grace") && latestEnd <= nowMs
        let tailEnd: Int64? = !retrying ? nil : state == "grace" ? max(gracePeriodEndsMs ?? nowMs, nowMs) : nowMs
        let start = first.startMs
        let end = max(nowMs, last.endMs, latestEnd, tailEnd ?? nowMs, start + 1)
        let width = 720.0, height = 46.0
        func x(_ ms: Int64) -> Double { 4 + (width - 8) * Double(ms - start) / Double(end - start) }

        var summary = "\(periods) period\(periods == 1 ? "" : "s")"
        if runCount > 1 { summary += " in \(runCount) runs" }
        summary += " from \(ManagePages.date(first.startMs)) to \(ManagePages.date(latestEnd))"
        if revoked > 0 { summary += ", \(revoked) revoked" }
        if runCount > shown.count { summary += " (the oldest \(runCount - shown.count) runs not drawn)" }
        if retrying {
            summary += state == "grace" ? "; in the grace period until \(ManagePages.date(tailEnd))" : "; in billing retry since \(ManagePages.date(latestEnd))"
        } else if state == "expired", latestEnd <= nowMs {
            summary += "; expired"
        }
        summary += "; now is \(ManagePages.date(nowMs))."

        html.open("svg", [("class", "mg-timeline"), ("viewBox", "0 0 \(Int(width)) \(Int(height))"), ("role", "img"), ("aria-label", "Timeline: \(summary)"),
                          ("xmlns", "http://www.w3.org/2000/svg")])
        func bar(_ kind: String, from: Int64, to: Int64, periods: Int, title: String) {
            let left = x(from), barWidth = max(1.5, x(to) - left - 1)
            html.open("rect", [("class", kind), ("x", Self.decimal(left)), ("y", "8"), ("height", "18"), ("width", Self.decimal(barWidth))])
            html.element("title", text: title)
            html.close("rect")
            if periods > 1, barWidth >= 28 {
                html.element("text", [("class", "mg-run-count"), ("x", Self.decimal(left + barWidth / 2)), ("y", "21"), ("text-anchor", "middle"),
                                      ("aria-hidden", "true")], text: "×\(periods)")
            }
        }
        let current = state == "grace" || state == "billing-retry" ? "mg-bar-grace" : "mg-bar-a"
        for run in shown {
            let to = run.revokedMs.map { min($0, run.endMs) } ?? run.endMs
            let product = " \(run.productId): "
            if let revokedMs = run.revokedMs {
                bar("mg-bar-revoked", from: run.startMs, to: to, periods: run.periods,
                    title: "\(run.firstId)\(product)\(ManagePages.date(run.startMs)) – \(ManagePages.date(run.endMs)), revoked \(ManagePages.date(revokedMs))")
            } else if to > nowMs, run.periods > 1, run.lastStartMs > run.startMs {
                // The run's past periods in grey, its current period in the state's colour.
                bar("mg-bar-expired", from: run.startMs, to: run.lastStartMs, periods: run.periods - 1,
                    title: "\(run.periods - 1) periods, \(run.firstId) onwards\(product)\(ManagePages.date(run.startMs)) – \(ManagePages.date(run.lastStartMs))")
                bar(current, from: run.lastStartMs, to: to, periods: 1,
                    title: "\(run.lastId)\(product)\(ManagePages.date(run.lastStartMs)) – \(ManagePages.date(run.endMs)) (current period)")
            } else {
                let who = run.periods == 1 ? "\(run.firstId)" : "\(run.periods) periods, \(run.firstId) to \(run.lastId)"
                bar(to <= nowMs ? "mg-bar-expired" : current, from: run.startMs, to: to, periods: run.periods,
                    title: "\(who)\(product)\(ManagePages.date(run.startMs)) – \(ManagePages.date(run.endMs))")
            }
        }
        if let tailEnd {
            let left = x(latestEnd)
            html.open("rect", [("class", state == "grace" ? "mg-bar-grace" : "mg-bar-fail"), ("x", Self.decimal(left)), ("y", "12"), ("height", "10"),
                               ("width", Self.decimal(max(1.5, x(tailEnd) - left)))])
            html.element("title", text: state == "grace" ? "Grace period: \(ManagePages.date(latestEnd)) – \(ManagePages.date(tailEnd))"
                         : "Billing retry since \(ManagePages.date(latestEnd))")
            html.close("rect")
        }
        let now = Self.decimal(x(nowMs))
        html.open("line", [("class", "mg-axis"), ("x1", now), ("x2", now), ("y1", "2"), ("y2", "32")])
        html.close("line")
        html.element("text", [("x", "4"), ("y", "42")], text: ManagePages.date(start))
        html.element("text", [("x", String(Int(width) - 4)), ("y", "42"), ("text-anchor", "end")], text: ManagePages.date(end))
        html.close("svg")
    }

    /// One decimal, as SVG coordinates need (`String(format:)` costs microseconds each on Linux).
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
