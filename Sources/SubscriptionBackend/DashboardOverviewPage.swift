import Foundation
import Hummingbird
import StoreShared

/// The dashboard's pages, server-rendered. Each figure carries `data-figure` with the name of its
/// field in `GET /v1/admin/overview`, so a test (or a person) can hold the page against the API.
enum DashboardPages {
    static func overview(_ figures: OverviewFigures, signOut: Bool) -> Response {
        DashboardDocument.page("Overview", section: .overview, signOut: signOut) { html in
            html.element("h1", text: "Overview")
            html.element("p", [("class", "bd-muted")],
                         text: "At \(DashboardDocument.time(figures.asOf)) on the store's clock (the later of the backend's clock and the latest signed date it received). “Last 28 days” runs from \(DashboardDocument.time(figures.windowStart)).")
            html.element("form", [("method", "get"), ("action", "/"), ("class", "bd-inline")]) {
                html.element("div") {
                    html.element("label", [("for", "bd-environment")], text: "Environment")
                    html.element("select", [("id", "bd-environment"), ("name", "environment")]) {
                        for (value, label) in [("", "Production and Sandbox"), ("Production", "Production"), ("Sandbox", "Sandbox")] {
                            html.element("option", [("value", value), ("selected", (figures.environment ?? "") == value ? "" : nil)], text: label)
                        }
                    }
                }
                html.element("button", [("type", "submit")], text: "Show")
            }
            html.element("h2", [("id", "bd-figures-title")], text: "Figures")
            html.element("dl", [("class", "bd-figures"), ("aria-labelledby", "bd-figures-title")]) {
                figure(html, "activeSubscriptions", "Active subscriptions", "\(figures.activeSubscriptions)",
                       "Paid, cancelled ones until they expire and billing grace periods included.")
                figure(html, "activeTrials", "Active trials", "\(figures.activeTrials)", "Free trials running now.")
                let count = figures.mrr.reduce(0) { $0 + $1.count }
                figure(html, "mrr", "MRR", amounts(figures.mrr),
                       "\(count) paid subscription\(count == 1 ? "" : "s"), each price per month (yearly ÷ 12, weekly × 52 ÷ 12)."
                       + (figures.mrrPeriodsAssumedMonthly > 0
                          ? " \(figures.mrrPeriodsAssumedMonthly) counted as monthly: their period is an accelerated test one." : ""))
                figure(html, "revenueLast28Days", "Revenue, last 28 days", amounts(figures.revenueLast28Days),
                       "Purchases and renewals, before Apple's commission and taxes; refunded ones left out.")
                figure(html, "newCustomers", "New customers, last 28 days", "\(figures.newCustomers)",
                       "Of \(figures.customers) customer\(figures.customers == 1 ? "" : "s") in all.")
                figure(html, "trialConversion", "Trial conversion", rate(figures.trialConversion),
                       "\(figures.trialConversion.part) of \(figures.trialConversion.of) free trials that ended in the last 28 days became paid.")
                figure(html, "churn", "Churn", rate(figures.churn),
                       "\(figures.churn.part) of \(figures.churn.of) paid subscriptions active 28 days ago are not active now.")
                figure(html, "refundRate", "Refund rate", rate(figures.refundRate),
                       "\(figures.refundRate.part) of \(figures.refundRate.of) paid transactions of the last 28 days were refunded.")
                let requests = figures.refundRequests
                figure(html, "refundRequests", "Refund requests", "\(requests.requested)",
                       "Asked of Apple by customers, in all: \(requests.answered) answered by refund control, "
                       + "\(requests.granted) granted and \(requests.declined) declined by the App Store.")
            }
            html.element("h2", text: "Find a customer")
            searchForm(html, value: "")
            html.element("h2", text: "Webhooks")
            html.element("form", [("method", "post"), ("action", "/webhooks/test"), ("class", "bd-inline")]) {
                html.element("button", [("type", "submit")], text: "Send a test event")
            }
            html.element("h2", text: "Charts")
            charts(figures, html)
        }
    }

    /// One figure: its name, its value (`.bd-value`), and what it counts.
    static func figure(_ html: HTMLWriter, _ key: String, _ name: String, _ value: String, _ detail: String) {
        html.element("div") {
            html.element("dt", [("id", "bd-fig-\(key)")], text: name)
            html.element("dd", [("data-figure", key), ("aria-describedby", "bd-fig-\(key)-detail")]) {
                html.element("span", [("class", "bd-value")], text: value)
                html.element("small", [("id", "bd-fig-\(key)-detail")], text: detail)
            }
        }
    }

    /// `4.99 USD, 3.50 EUR`, or `none`.
    static func amounts(_ amounts: [OverviewFigures.CurrencyAmount]) -> String {
        amounts.isEmpty ? "none" : amounts.map { "\(String(format: "%.2f", $0.amount)) \($0.currency)" }.joined(separator: ", ")
    }

    /// `33.3%`, or `n/a` when there was nothing to divide by.
    static func rate(_ ratio: OverviewFigures.Ratio) -> String {
        guard let rate = ratio.rate else { return "n/a" }
        return String(format: "%.1f%%", rate * 100)
    }

    static func searchForm(_ html: HTMLWriter, value: String) {
        html.element("form", [("method", "get"), ("action", "/customers"), ("class", "bd-inline"), ("role", "search")]) {
            html.element("div") {
                html.element("label", [("for", "bd-search")], text: "App user ID, transaction ID or appAccountToken")
                html.open("input", [("id", "bd-search"), ("type", "search"), ("name", "q"), ("value", value), ("maxlength", "256"),
                                    ("autocomplete", "off"), ("spellcheck", "false")])
            }
            html.element("button", [("type", "submit")], text: "Find")
        }
    }

    /// Inline SVG bar charts with their text alternatives (`BarChart`, the store's dashboard
    /// charts): actives and trials per day, revenue per day by currency, new customers per day.
    static func charts(_ figures: OverviewFigures, _ html: HTMLWriter) {
        let labels = figures.days.map(\.date)
        let active = figures.days.map { Double($0.activeSubscriptions) }, trials = figures.days.map { Double($0.activeTrials) }
        html.element("section", [("class", "bd-card")]) {
            BarChart(id: "bd-chart-actives", title: "Active subscriptions and trials per day",
                     summary: "Over \(figures.days.count) days: paid subscriptions peaked at \(Int(active.max() ?? 0)) and are \(Int(active.last ?? 0)) today; trials peaked at \(Int(trials.max() ?? 0)) and are \(Int(trials.last ?? 0)) today.",
                     labels: labels,
                     series: [.init(name: "Active subscriptions", cssClass: "mg-bar-a", values: active),
                              .init(name: "Active trials", cssClass: "mg-bar-b", values: trials)])
                .render(html)
        }
        let currencies = Set(figures.days.flatMap { $0.revenue.map(\.currency) }).sorted()
        html.element("section", [("class", "bd-card")]) {
            let totals = currencies.map { currency in
                "\(String(format: "%.2f", figures.days.reduce(0.0) { $0 + ($1.revenue.first { $0.currency == currency }?.amount ?? 0) })) \(currency)"
            }
            BarChart(id: "bd-chart-revenue", title: "Revenue per day by currency",
                     summary: currencies.isEmpty ? "No revenue in these \(figures.days.count) days." : "Revenue over \(figures.days.count) days: \(totals.joined(separator: ", ")).",
                     labels: labels,
                     series: currencies.enumerated().map { index, currency in
                         .init(name: currency, cssClass: ["mg-bar-a", "mg-bar-b", "mg-bar-grace", "mg-bar-expired"][index % 4],
                               values: figures.days.map { day in day.revenue.first { $0.currency == currency }?.amount ?? 0 })
                     }, stacked: true, format: { String(format: "%.2f", $0) })
                .render(html)
        }
        let new = figures.days.map { Double($0.newCustomers) }
        html.element("section", [("class", "bd-card")]) {
            BarChart(id: "bd-chart-customers", title: "New customers per day",
                     summary: "\(Int(new.reduce(0, +))) new customers over \(figures.days.count) days.",
                     labels: labels, series: [.init(name: "New customers", cssClass: "mg-bar-a", values: new)])
                .render(html)
        }
    }

    /// A page that only says something (an error, a missing customer).
    static func message(_ title: String, status: HTTPResponse.Status, signOut: Bool, text: String) -> Response {
        DashboardDocument.page(title, section: nil, signOut: signOut, status: status) { html in
            html.element("h1", text: title)
            html.element("p", text: text)
            html.element("p") { html.element("a", [("href", "/")], text: "Back to the overview") }
        }
    }

    static func login(next: String, error: String?, tokenRequired: Bool, status: HTTPResponse.Status = .ok) -> Response {
        DashboardDocument.page("Sign in", section: nil, signOut: false, status: status) { html in
            html.element("h1", text: "Sign in")
            guard tokenRequired else {
                html.element("p", text: "This backend has no API token: its pages are open on loopback.")
                html.element("p") { html.element("a", [("href", next)], text: "Go on") }
                return
            }
            html.element("p", text: "This backend was started with --api-token: enter that token to see its dashboard.")
            if let error { html.element("p", [("class", "bd-error"), ("role", "alert")], text: error) }
            html.element("form", [("method", "post"), ("action", "/login"), ("class", "bd-inline")]) {
                html.open("input", [("type", "hidden"), ("name", "next"), ("value", next)])
                html.element("div") {
                    html.element("label", [("for", "bd-token")], text: "API token")
                    html.open("input", [("id", "bd-token"), ("type", "password"), ("name", "token"), ("required", ""),
                                        ("autocomplete", "current-password")])
                }
                html.element("button", [("type", "submit")], text: "Sign in")
            }
        }
    }
}
