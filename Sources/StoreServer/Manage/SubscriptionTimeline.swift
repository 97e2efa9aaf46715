import Foundation
import StoreEngine
import StoreViews

/// A subscription's periods on a time axis, as inline SVG: one bar per transaction of the chain
/// (the last 60), past periods grey, revoked ones red, the current one in the state's colour,
/// and "now" as a line. Its text alternative says what the bars say; each bar's title names its
/// transaction and dates, and the transactions below list every field.
struct SubscriptionTimeline {
    static let maxPeriods = 60

    let originalId: Int64
    let periods: [TransactionPeriod]
    let nowMs: Int64
    let state: String

    func draw(_ html: HTMLWriter) {
        let chain = Array(periods.filter { $0.originalId == originalId && $0.expiresMs != nil }.prefix(Self.maxPeriods).reversed())
        guard let first = chain.first, let last = chain.last else { return }
        let start = first.purchaseMs
        let end = max(nowMs, last.expiresMs ?? nowMs, start + 1)
        let width = 720.0, height = 46.0
        func x(_ ms: Int64) -> Double { 4 + (width - 8) * Double(ms - start) / Double(end - start) }
        let summary = "\(chain.count) period\(chain.count == 1 ? "" : "s") from \(ManagePages.date(first.purchaseMs)) to \(ManagePages.date(last.expiresMs))"
            + (chain.contains { $0.revokedMs != nil } ? ", some revoked" : "") + "; now is \(ManagePages.date(nowMs))."
        html.open("svg", [("class", "mg-timeline"), ("viewBox", "0 0 \(Int(width)) \(Int(height))"), ("role", "img"), ("aria-label", "Timeline: \(summary)"),
                          ("xmlns", "http://www.w3.org/2000/svg")])
        for period in chain {
            let to = period.revokedMs.map { min($0, period.expiresMs ?? $0) } ?? period.expiresMs ?? nowMs
            let kind = period.revokedMs != nil ? "mg-bar-revoked" : to <= nowMs ? "mg-bar-expired"
                : state == "grace" || state == "billing-retry" ? "mg-bar-grace" : "mg-bar-a"
            let left = x(period.purchaseMs)
            html.open("rect", [("class", kind), ("x", String(format: "%.1f", left)), ("y", "8"), ("height", "18"),
                               ("width", String(format: "%.1f", max(1.5, x(to) - left - 1)))])
            html.element("title", text: "\(period.id) \(period.productId): \(ManagePages.date(period.purchaseMs)) – \(ManagePages.date(period.expiresMs))")
            html.close("rect")
        }
        let now = String(format: "%.1f", x(nowMs))
        html.open("line", [("class", "mg-axis"), ("x1", now), ("x2", now), ("y1", "2"), ("y2", "32")])
        html.close("line")
        html.element("text", [("x", "4"), ("y", "42")], text: ManagePages.date(start))
        html.element("text", [("x", String(Int(width) - 4)), ("y", "42"), ("text-anchor", "end")], text: ManagePages.date(end))
        html.close("svg")
    }
}
