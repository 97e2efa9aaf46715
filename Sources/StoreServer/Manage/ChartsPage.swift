import Foundation
import Hummingbird
import StoreEngine
import StoreViews
import StoreShared

/// Charts over the world's simulated time, drawn on the server as inline SVG with their text
/// alternatives (`BarChart`): active subscriptions and renewals per day, revenue per day by
/// currency, notification deliveries per hour (successes and failures).
extension ManagePages {
    func charts(_ query: ManageQuery) async throws -> Response {
        let figures = try await store.world(query.world).dashboardFigures()
        return ManageDocument.page("Charts of \(query.world)", query, section: .charts) { html in
            html.element("h1", [("class", "sk-section-title")], text: "Charts")
            html.element("p", [("class", "mg-muted")], text: "Over the world's simulated time, in UTC days and hours up to the world's now.")
            Self.chartHTML(figures, html)
        }
    }

    static func chartHTML(_ figures: DashboardFigures, _ html: HTMLWriter) {
        let dayLabels = figures.days.map { String(date($0.startMs).prefix(10)) }
        let active = figures.days.map { Double($0.activeSubscriptions) }, renewals = figures.days.map { Double($0.renewals) }
        html.element("section", [("class", "mg-card")]) {
            BarChart(id: "mg-chart-subscriptions", title: "Active subscriptions and renewals per day",
                     summary: "Over \(figures.days.count) days: active subscriptions peaked at \(Int(active.max() ?? 0)) and are \(Int(active.last ?? 0)) today; \(Int(renewals.reduce(0, +))) renewals in all.",
                     labels: dayLabels,
                     series: [.init(name: "Active subscriptions", cssClass: "mg-bar-a", values: active), .init(name: "Renewals", cssClass: "mg-bar-b", values: renewals)])
                .render(html)
        }
        html.element("section", [("class", "mg-card")]) {
            let totals = figures.revenue.map { "\(String(format: "%.2f", Double($0.perDay.reduce(0, +)) / 1000)) \($0.currency)" }
            BarChart(id: "mg-chart-revenue", title: "Revenue per day by currency",
                     summary: figures.revenue.isEmpty ? "No revenue yet." : "Revenue over \(figures.days.count) days: \(totals.joined(separator: ", ")).",
                     labels: dayLabels,
                     series: figures.revenue.enumerated().map { index, revenue in
                         .init(name: revenue.currency, cssClass: ["mg-bar-a", "mg-bar-b", "mg-bar-grace", "mg-bar-expired"][index % 4],
                               values: revenue.perDay.map { Double($0) / 1000 })
                     }, stacked: true, format: { String(format: "%.2f", $0) })
                .render(html)
        }
        html.element("section", [("class", "mg-card")]) {
            let ok = figures.deliveries.reduce(0) { $0 + $1.successes }, failed = figures.deliveries.reduce(0) { $0 + $1.failures }
            BarChart(id: "mg-chart-deliveries", title: "Notification deliveries per hour",
                     summary: "In the last \(figures.deliveries.count) hours: \(ok) successful and \(failed) failed send attempts.",
                     labels: figures.deliveries.map { String(date($0.startMs).prefix(16)) },
                     series: [.init(name: "Successes", cssClass: "mg-bar-b", values: figures.deliveries.map { Double($0.successes) }),
                              .init(name: "Failures", cssClass: "mg-bar-fail", values: figures.deliveries.map { Double($0.failures) })],
                     stacked: true)
                .render(html)
        }
    }
}
