import Foundation
import Hummingbird
import StoreShared

/// `/charts` (every chart, with what it counts) and `/charts/{name}` (one chart: its filters as a
/// form, the chart as inline SVG with a spoken summary, every number in a table, and a CSV
/// download). The numbers are `GET /v1/charts/{name}`'s, cell for cell.
extension DashboardPages {
    static func chartList(signOut: Bool) -> Response {
        DashboardDocument.page("Charts", section: .charts, signOut: signOut) { html in
            html.element("h1", text: "Charts")
            html.element("p", [("class", "bd-muted")],
                         text: "Each chart is also JSON at GET /v1/charts/{name} (and CSV with ?format=csv), with the same filters.")
            html.element("ul", [("class", "bd-chart-list")]) {
                for name in ChartName.allCases {
                    html.element("li") {
                        html.element("a", [("href", "/charts/\(name.rawValue)")], text: name.title)
                        html.element("p", text: name.summary)
                    }
                }
            }
        }
    }

    static func chart(_ chart: Chart, query: String?, signOut: Bool) -> Response {
        DashboardDocument.page(chart.title, section: .charts, signOut: signOut) { html in
            html.element("h1", text: chart.title)
            html.element("p", text: chart.description)
            html.element("p", [("class", "bd-muted")],
                         text: "From \(chart.from) to \(chart.to) by \(chart.resolution), at \(DashboardDocument.time(chart.asOf)) on the store's clock. Money is never converted between currencies.")
            chartForm(html, FormValues(chart))
            html.element("h2", text: "The chart")
            html.element("section", [("class", "bd-card")]) { plot(chart).render(html) }
            html.element("h2", [("id", "bd-table-title")], text: "The numbers")
            let csv = "/charts/\(chart.name)/csv" + (query.map { $0.isEmpty ? "" : "?" + $0 } ?? "")
            html.element("p") { html.element("a", [("href", csv), ("download", "\(chart.name).csv")], text: "Download as CSV") }
            table(html, chart)
        }
    }

    /// A query the chart cannot take: what is wrong, the form with what was sent (to correct it),
    /// and the way back to the chart with its defaults.
    static func chartRefused(_ name: String, message: String, sent: [String: String], status: HTTPResponse.Status,
                             signOut: Bool) -> Response {
        let chart = ChartName(rawValue: name)
        return DashboardDocument.page("Cannot draw this chart", section: .charts, signOut: signOut, status: status) { html in
            html.element("h1", text: "Cannot draw this chart")
            html.element("p", [("role", "alert")], text: message)
            if let chart {
                chartForm(html, FormValues(name: chart.rawValue, sent: sent))
                html.element("p") { html.element("a", [("href", "/charts/\(chart.rawValue)")], text: "\(chart.title) with its defaults") }
            }
            html.element("p") { html.element("a", [("href", "/charts")], text: "Every chart") }
        }
    }

    /// What the form shows: a chart's own range and filters, or the fields of a refused query as sent.
    struct FormValues {
        var name: String
        var resolution: String
        var from: String
        var to: String
        var environment: String
        var app: String
        var product: String
        var country: String
        var store: String

        init(_ chart: Chart) {
            name = chart.name
            resolution = chart.resolution
            (from, to) = (chart.from, chart.to)
            environment = chart.filters.environment.count == 1 ? chart.filters.environment[0] : ""
            app = chart.filters.app.joined(separator: ",")
            product = chart.filters.product.joined(separator: ",")
            country = chart.filters.country.joined(separator: ",")
            store = chart.filters.store.count == 1 ? chart.filters.store[0] : ""
        }

        init(name: String, sent: [String: String]) {
            self.name = name
            resolution = sent["resolution"] ?? ChartResolution.day.rawValue
            (from, to) = (sent["from"] ?? "", sent["to"] ?? "")
            (environment, app, product) = (sent["environment"] ?? "", sent["app"] ?? "", sent["product"] ?? "")
            (country, store) = (sent["country"] ?? "", sent["store"] ?? "")
        }
    }

    /// The filters as a GET form to the same page: nothing runs in the page.
    private static func chartForm(_ html: HTMLWriter, _ chart: FormValues) {
        html.element("form", [("method", "get"), ("action", "/charts/\(chart.name)"), ("class", "bd-inline")]) {
            html.element("div") {
                html.element("label", [("for", "bd-resolution")], text: "Resolution")
                html.element("select", [("id", "bd-resolution"), ("name", "resolution")]) {
                    for r in ChartResolution.allCases {
                        html.element("option", [("value", r.rawValue), ("selected", chart.resolution == r.rawValue ? "" : nil)], text: r.rawValue)
                    }
                }
            }
            for (name, label, value) in [("from", "From", chart.from), ("to", "To", chart.to)] {
                html.element("div") {
                    html.element("label", [("for", "bd-\(name)")], text: label)
                    html.open("input", [("id", "bd-\(name)"), ("type", "date"), ("name", name), ("value", value)])
                }
            }
            html.element("div") {
                html.element("label", [("for", "bd-environment")], text: "Environment")
                html.element("select", [("id", "bd-environment"), ("name", "environment")]) {
                    let current = chart.environment
                    for (value, label) in [("", "Production and Sandbox"), ("Production", "Production"), ("Sandbox", "Sandbox")] {
                        html.element("option", [("value", value), ("selected", current == value ? "" : nil)], text: label)
                    }
                }
            }
            for (name, label, value) in [("app", "Apps (bundle IDs)", chart.app), ("product", "Products", chart.product),
                                         ("country", "Countries (USA, FRA…)", chart.country)] {
                html.element("div") {
                    html.element("label", [("for", "bd-\(name)")], text: label)
                    html.open("input", [("id", "bd-\(name)"), ("type", "text"), ("name", name), ("value", value),
                                        ("autocomplete", "off"), ("spellcheck", "false")])
                }
            }
            html.element("div") {
                html.element("label", [("for", "bd-store")], text: "Store")
                html.element("select", [("id", "bd-store"), ("name", "store")]) {
                    let current = chart.store
                    for (value, label) in [("", "Any store"), ("app_store", "App Store")] {
                        html.element("option", [("value", value), ("selected", current == value ? "" : nil)], text: label)
                    }
                }
            }
            html.element("button", [("type", "submit")], text: "Show")
        }
    }

    /// What the SVG draws: movements stacked around zero, rates as percentages, a cohort chart's
    /// retention or lifetime value as one curve over the periods since the cohorts began (each
    /// cohort weighted by its size), everything else side by side; money of the first currency.
    static func plot(_ chart: Chart) -> BarChart {
        let classes = ["mg-bar-a", "mg-bar-b", "mg-bar-grace", "mg-bar-expired", "mg-bar-fail"]
        let firstCurrency = chart.series.compactMap(\.currency).first
        func format(_ unit: String) -> @Sendable (Double) -> String {
            switch unit {
            case "rate": { String(format: "%.1f%%", $0) }
            case "money": { String(format: "%.2f", $0) }
            default: { $0 == $0.rounded() ? String(Int64($0)) : String(format: "%.2f", $0) }
            }
        }
        let id = "bd-chart-\(chart.name)"
        let name = ChartName(rawValue: chart.name)
        if name == .subscriptionRetention || name == .ltvPerCustomer {
            let columns = chart.series.enumerated().filter { $0.element.periodsSince != nil && ($0.element.currency == nil || $0.element.currency == firstCurrency) }
            let sizeIndex = chart.series.firstIndex { $0.unit == "count" } ?? 0
            let values = columns.map { column -> Double in
                var sum = 0.0, weight = 0.0
                for point in chart.points {
                    guard let v = point.values[column.offset], let size = point.values[sizeIndex], size > 0 else { continue }
                    sum += v * size
                    weight += size
                }
                return weight == 0 ? 0 : sum / weight * (column.element.unit == "rate" ? 100 : 1)
            }
            let unit = columns.first?.element.unit ?? "rate"
            let what = name == .subscriptionRetention ? "Share retained" : "LTV per customer (\(firstCurrency ?? "none"))"
            return with(BarChart(id: id, title: "\(chart.title): all cohorts",
                                 summary: "\(what) by periods since each cohort began: " + values.enumerated().map { "\($0.offset): \(format(unit)($0.element))" }.joined(separator: ", "),
                                 labels: columns.map { "\($0.element.periodsSince ?? 0)" },
                                 series: [.init(name: what, cssClass: classes[0], values: values)], format: format(unit)))
        }
        let movement = name == .mrrMovement || name == .activesMovement
        let rates = chart.series.contains { $0.unit == "rate" }
        var chosen = chart.series.enumerated().filter { s in
            if s.element.currency != nil && s.element.currency != firstCurrency { return false }
            if movement { return s.element.measure != "net" }
            if rates { return s.element.unit == "rate" }
            return s.element.unit == (chart.series.contains { $0.unit == "money" } ? "money" : "count")
        }
        if chosen.isEmpty { chosen = Array(chart.series.enumerated()) }
        let unit = chosen.first?.element.unit ?? "count"
        let series = chosen.enumerated().map { index, s in
            BarChart.Series(name: s.element.title, cssClass: classes[index % classes.count],
                            values: chart.points.map { ($0.values[s.offset] ?? 0) * (unit == "rate" ? 100 : 1) })
        }
        let latest = chart.points.last.map { p in
            chosen.map { s in "\(s.element.title) \(p.values[s.offset].map { format(unit)($0 * (unit == "rate" ? 100 : 1)) } ?? "n/a")" }
                .joined(separator: ", ")
        } ?? ""
        let summary = chart.points.isEmpty ? "No periods in this range."
            : "\(chart.title) by \(chart.resolution), \(chart.points.count) period\(chart.points.count == 1 ? "" : "s") from \(chart.from) to \(chart.to). Latest (\(chart.points.last!.period)): \(latest)."
        var bar = BarChart(id: id, title: chart.title, summary: summary, labels: chart.points.map(\.period), series: series,
                           stacked: movement, format: format(unit))
        bar.allowsNegative = movement
        return with(bar)
    }

    private static func with(_ chart: BarChart) -> BarChart {
        var chart = chart
        chart.showsTable = false
        return chart
    }

    /// Every value, a row per period (or cohort), a column per series.
    private static func table(_ html: HTMLWriter, _ chart: Chart) {
        html.element("div", [("class", "bd-scroll"), ("role", "region"), ("aria-labelledby", "bd-table-title"), ("tabindex", "0")]) {
            html.element("table", [("data-chart", chart.name)]) {
                html.element("caption", [("class", "sk-visually-hidden")], text: "\(chart.title), by \(chart.resolution)")
                html.element("thead") {
                    html.element("tr") {
                        html.element("th", [("scope", "col")], text: chart.cohort ? "Cohort" : "Period")
                        for s in chart.series { html.element("th", [("scope", "col"), ("data-series", s.id)], text: s.title) }
                    }
                }
                html.element("tbody") {
                    for point in chart.points {
                        html.element("tr", [("data-period", point.period)]) {
                            html.element("th", [("scope", "row")], text: point.period + (point.incomplete ? " (so far)" : ""))
                            for (s, value) in zip(chart.series, point.values) {
                                html.element("td", [("class", "bd-num")], text: cell(value, unit: s.unit))
                            }
                        }
                    }
                }
            }
        }
    }

    static func cell(_ value: Double?, unit: String) -> String {
        guard let value else { return "—" }
        switch unit {
        case "rate": return String(format: "%.1f%%", value * 100)
        case "money": return String(format: "%.2f", value)
        default: return Chart.number(value)
        }
    }
}
