import Foundation

/// The backend's charts (RevenueCat's Charts API names where RevenueCat has the chart;
/// docs/backend.md, Charts, defines each and names its source).
public enum ChartName: String, Codable, Sendable, CaseIterable {
    case revenue, mrr, mrrMovement = "mrr_movement", arr, actives, activesMovement = "actives_movement", trials
    case customersNew = "customers_new", trialConversion = "trial_conversion_rate", initialConversion = "initial_conversion"
    case conversionToPaying = "conversion_to_paying", churn, refundRate = "refund_rate"
    case subscriptionRetention = "subscription_retention", ltvPerCustomer = "ltv_per_customer"
    case nonSubscriptionPurchases = "non_subscription_purchases"

    /// The chart's heading.
    public var title: String {
        switch self {
        case .revenue: "Revenue and proceeds"
        case .mrr: "MRR"
        case .mrrMovement: "MRR movement"
        case .arr: "ARR"
        case .actives: "Active subscriptions"
        case .activesMovement: "Active subscriptions movement"
        case .trials: "Active trials"
        case .customersNew: "New customers"
        case .trialConversion: "Trial conversion"
        case .initialConversion: "Initial conversion"
        case .conversionToPaying: "Conversion to paying"
        case .churn: "Churn"
        case .refundRate: "Refund rate and refund requests"
        case .subscriptionRetention: "Subscription retention"
        case .ltvPerCustomer: "Realized LTV per customer"
        case .nonSubscriptionPurchases: "Non-subscription purchases"
        }
    }

    /// What a point counts, in a sentence.
    public var summary: String {
        switch self {
        case .revenue: "Paid purchases and renewals bought in each period, refunded ones left out: the prices (before Apple's commission and taxes) and the proceeds (after the commission, before taxes)."
        case .mrr: "Each active paid subscription's price normalized to a month, at each period's end."
        case .mrrMovement: "How MRR changed in each period: new and resubscribing subscriptions, upgrades (expansion), downgrades (contraction) and churn. Net is the change of MRR."
        case .arr: "MRR × 12 at each period's end."
        case .actives: "Paid auto-renewable subscriptions active at each period's end (billing grace periods included, free trials not)."
        case .activesMovement: "Paid subscriptions that became active (new, or resubscribing after a lapse) and that stopped being active in each period."
        case .trials: "Free trials active at each period's end, and free trials started in each period."
        case .customersNew: "Customers first seen in each period: at their first purchase or when the backend first heard of them, whichever came first."
        case .trialConversion: "Of the customers first seen in each period (a cohort), those who started a free trial, and what became of their first trial so far: converted to paid, pending (running, set to renew) or abandoned."
        case .initialConversion: "Of the customers first seen in each period, the share who made any purchase so far: a free trial, a subscription or a one-time purchase."
        case .conversionToPaying: "Of the customers first seen in each period, the share who have paid so far (a paid subscription period or a paid one-time purchase, not refunded)."
        case .churn: "Of the paid subscriptions active at each period's start, the share not active at its end."
        case .refundRate: "Paid transactions bought in each period and the share of them refunded; refund requests (CONSUMPTION_REQUEST) received in each period."
        case .subscriptionRetention: "Subscriptions grouped by the period their first paid period began in (a cohort); the share of each cohort still paid and active at the end of each period since."
        case .ltvPerCustomer: "Customers grouped by the period they were first seen in; what the cohort has paid by the end of each period since, per customer, refunds left out."
        case .nonSubscriptionPurchases: "Consumables, non-consumables and non-renewing subscriptions bought in each period, the refunded ones among them, and their revenue."
        }
    }

    /// Cohort charts: a row per cohort, a column per period since.
    public var isCohort: Bool { [.trialConversion, .initialConversion, .conversionToPaying, .subscriptionRetention, .ltvPerCustomer].contains(self) }
}

/// One chart as `GET /v1/charts/{name}` answers it, and as the dashboard draws it: named series
/// (a measure, of one currency where it is money) and one point per period (or cohort) with a
/// value per series. Money is in the currency's units, never converted between currencies;
/// rates are fractions (0.25 is 25 %), null when there was nothing to divide by.
public struct Chart: Codable, Sendable, Equatable {
    public var name: String
    public var title: String
    public var description: String
    /// The instant the chart is judged at (ms, the store's clock as the backend knows it).
    public var asOf: Int64
    public var resolution: String
    /// The first and last day asked for (`YYYY-MM-DD`, UTC).
    public var from: String
    public var to: String
    public var filters: ChartFilters
    /// True when each point is a cohort and the series count periods since it began.
    public var cohort: Bool
    public var series: [Series]
    public var points: [Point]

    /// One measure of the chart.
    public struct Series: Codable, Sendable, Equatable {
        /// Unique in the chart: the measure, then `.CUR` for a currency and `.N` for a period since a cohort began.
        public var id: String
        public var measure: String
        /// ISO 4217 code when the measure is money; null otherwise.
        public var currency: String?
        /// For cohort columns: periods since the cohort's own period (0 is that period); null otherwise.
        public var periodsSince: Int?
        public var title: String
        /// `count`, `money` or `rate`.
        public var unit: String

        enum CodingKeys: String, CodingKey { case id, measure, currency, periodsSince, title, unit }
        /// Absent values are written as null, so every key is always there.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(measure, forKey: .measure)
            try c.encode(currency, forKey: .currency)
            try c.encode(periodsSince, forKey: .periodsSince)
            try c.encode(title, forKey: .title)
            try c.encode(unit, forKey: .unit)
        }
    }

    /// One period (or cohort).
    public struct Point: Codable, Sendable, Equatable {
        /// `2026-03-01` (a day or the Monday of a week), `2026-03`, `2026-Q1`, `2026`.
        public var period: String
        public var startMs: Int64
        /// The period's end, exclusive.
        public var endMs: Int64
        /// The period runs past `asOf`, so its values will still change.
        public var incomplete: Bool
        /// One per series, in order; null where nothing is defined (a rate of nothing, a cohort
        /// column not reached yet).
        public var values: [Double?]

        enum CodingKeys: String, CodingKey { case period, startMs, endMs, incomplete, values }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(period, forKey: .period)
            try c.encode(startMs, forKey: .startMs)
            try c.encode(endMs, forKey: .endMs)
            try c.encode(incomplete, forKey: .incomplete)
            var list = c.nestedUnkeyedContainer(forKey: .values)
            for value in values {
                if let value { try list.encode(value) } else { try list.encodeNil() }
            }
        }
    }

    /// The value of series `id` at the point for `period`, for tests and scripts.
    public func value(_ id: String, at period: String) -> Double? {
        guard let s = series.firstIndex(where: { $0.id == id }), let p = points.first(where: { $0.period == period }) else { return nil }
        return p.values[s]
    }

    /// RFC 4180 CSV: a header row (`period`, `start`, `incomplete`, then each series' ID), a row
    /// per point; empty cells for null. Every cell is ours (labels, numbers, series IDs), never text
    /// a customer wrote, so none can start a spreadsheet formula.
    public func csv() -> String {
        var lines = [(["period", "start", "incomplete"] + series.map(\.id)).map(Self.cell).joined(separator: ",")]
        for point in points {
            let cells = [point.period, ChartPeriods.dateText(ChartPeriods.dayNumber(point.startMs)), point.incomplete ? "true" : "false"]
                + point.values.map { $0.map(Self.number) ?? "" }
            lines.append(cells.map(Self.cell).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func number(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func cell(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
