import Foundation
import Hummingbird
import StoreShared

/// `/paywalls`: each app's offerings (the current one marked) and every experiment with its
/// report, each variant a row of an accessible table. Read only: offerings and experiments are
/// changed through `/v1/admin` (docs/backend.md, "Offerings and experiments").
extension DashboardPages {
    struct AppPaywalls {
        var bundleId: String
        var current: String?
        var offerings: [Offering]
        var reports: [ExperimentReport]
    }

    static func paywalls(_ apps: [AppPaywalls], signOut: Bool) -> Response {
        DashboardDocument.page("Paywalls", section: .paywalls, signOut: signOut) { html in
            html.element("h1", text: "Paywalls")
            html.element("p", [("class", "bd-muted")],
                         text: "Offerings the apps' paywalls read (GET /v1/customers/{appUserId}/offerings) and the experiments that test them. Change them through /v1/admin.")
            for app in apps {
                html.element("h2", text: app.bundleId)
                if app.offerings.isEmpty {
                    html.element("p", text: "No offering: the app's paywall uses its own products.")
                } else {
                    table(html, label: "Offerings of \(app.bundleId)", columns: ["Offering", "Current", "Packages", "Preselected", "Title"],
                          rows: app.offerings.map { o in
                              [o.id, yesNo(o.id == app.current), o.packages.map { "\($0.id): \($0.productId)" }.joined(separator: ", "),
                               o.preselectedPackage ?? "—", o.metadata["title"] ?? "—"]
                          })
                }
                for report in app.reports {
                    let e = report.experiment
                    html.element("h3", text: "Experiment \(e.id)")
                    html.element("p", [("class", "bd-muted")],
                                 text: "Started \(DashboardDocument.time(e.startMs)); " + (e.stopMs.map { "stopped \(DashboardDocument.time($0))." } ?? "running."))
                    table(html, label: "Experiment \(e.id) by variant",
                          columns: ["Variant", "Offering", "Customers", "Conversions", "Conversion rate", "Trial starts", "Trial conversions",
                                    "Revenue", "Realized LTV per customer"],
                          rows: report.variants.map { v in
                              [v.variant, v.offeringId, "\(v.customers)", "\(v.conversions)",
                               v.conversionRate.map { String(format: "%.1f%%", $0 * 100) } ?? "n/a", "\(v.trialStarts)", "\(v.trialConversions)",
                               totals(v.revenue), totals(v.realizedLtvPerCustomer)]
                          })
                }
            }
        }
    }

    private static func totals(_ amounts: [CurrencyTotal]) -> String {
        amounts.isEmpty ? "0" : amounts.map { DashboardDocument.money($0.milliunits, $0.currency) }.joined(separator: ", ")
    }
}
