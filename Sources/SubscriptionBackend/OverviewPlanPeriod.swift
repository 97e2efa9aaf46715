import Foundation

/// The billing period of a paid subscription transaction, read from its dates (Apple's signed
/// transaction carries no period), so MRR can normalize its price to a month as RevenueCat does:
/// yearly ÷ 12, weekly × 52 ÷ 12. Pure.
enum OverviewPlanPeriod: String, Sendable, CaseIterable {
    case week = "P1W", month = "P1M", twoMonths = "P2M", threeMonths = "P3M", sixMonths = "P6M", year = "P1Y"

    /// What one period's price is worth per month.
    var monthlyFactor: Double {
        switch self {
        case .week: 52.0 / 12.0
        case .month: 1
        case .twoMonths: 1.0 / 2.0
        case .threeMonths: 1.0 / 3.0
        case .sixMonths: 1.0 / 6.0
        case .year: 1.0 / 12.0
        }
    }

    /// Gregorian in UTC, made once: charts classify every paid transaction.
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// The calendar period from `purchaseMs` to `expiresMs` (UTC; a slack of two days on the
    /// month-based ones covers month ends and time zones), or nil when the span is no App Store
    /// period: an accelerated test time rate (sandbox's 5-minute month) or a shortened period.
    static func classify(purchaseMs: Int64, expiresMs: Int64) -> OverviewPlanPeriod? {
        let span = expiresMs - purchaseMs
        let day: Int64 = 86_400_000
        if abs(span - 7 * day) <= day / 2 { return .week }
        let calendar = utc
        let start = Date(timeIntervalSince1970: Double(purchaseMs) / 1000)
        let months: [(Int, OverviewPlanPeriod)] = [(1, .month), (2, .twoMonths), (3, .threeMonths), (6, .sixMonths), (12, .year)]
        for (count, period) in months {
            guard let end = calendar.date(byAdding: .month, value: count, to: start) else { continue }
            let endMs = Int64((end.timeIntervalSince1970 * 1000).rounded())
            if abs(endMs - expiresMs) <= 2 * day { return period }
        }
        return nil
    }
}
