/// The periods a chart's points stand for: UTC calendar days, ISO weeks (from Monday), months,
/// quarters and years, as RevenueCat's chart resolutions. Pure calendar arithmetic on
/// milliseconds (no calendar object), so a chart reads the same on any machine.
enum ChartResolution: String, Sendable, CaseIterable, Codable {
    case day, week, month, quarter, year

    /// How many periods a chart shows when `from` is not given.
    var defaultCount: Int {
        switch self {
        case .day: 30
        case .week: 12
        case .month: 12
        case .quarter: 8
        case .year: 5
        }
    }
}

/// One period of a chart: [startMs, endMs), its label, and the instant a state at its end is
/// judged at (its last millisecond, or the chart's `asOf` for the period still running).
struct ChartPeriod: Sendable, Equatable {
    var label: String
    var startMs: Int64
    var endMs: Int64
    var atMs: Int64
    /// The period runs past `asOf`: its figures will still change.
    var incomplete: Bool
}

enum ChartPeriods {
    static let dayMs: Int64 = 86_400_000

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    static func dayNumber(_ ms: Int64) -> Int64 {
        let (q, r) = ms.quotientAndRemainder(dividingBy: dayMs)
        return r < 0 ? q - 1 : q
    }

    /// `YYYY-MM-DD` of a day number.
    static func dateText(_ days: Int64) -> String {
        let (y, m, d) = civil(days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// Reads `YYYY-MM-DD` (years 1970–9999) into a day number.
    static func parseDate(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              (1970...9999).contains(y), (1...12).contains(m), d >= 1 else { return nil }
        let n = days(year: y, month: m, day: d)
        return civil(n) == (y, m, d) ? n : nil
    }

    /// The start (a day number) of the period holding day `n`.
    static func start(of n: Int64, _ resolution: ChartResolution) -> Int64 {
        let (y, m, _) = civil(n)
        switch resolution {
        case .day: return n
        case .week:
            // 1970-01-01 was a Thursday: Monday is 3 days before.
            let weekday = ((n + 3) % 7 + 7) % 7
            return n - weekday
        case .month: return days(year: y, month: m, day: 1)
        case .quarter: return days(year: y, month: (m - 1) / 3 * 3 + 1, day: 1)
        case .year: return days(year: y, month: 1, day: 1)
        }
    }

    /// The start of the period after the one starting on day `n`.
    static func next(after n: Int64, _ resolution: ChartResolution) -> Int64 {
        let (y, m, _) = civil(n)
        func plusMonths(_ k: Int64) -> Int64 {
            let total = y * 12 + (m - 1) + k
            return days(year: total / 12, month: total % 12 + 1, day: 1)
        }
        switch resolution {
        case .day: return n + 1
        case .week: return n + 7
        case .month: return plusMonths(1)
        case .quarter: return plusMonths(3)
        case .year: return plusMonths(12)
        }
    }

    static func label(_ n: Int64, _ resolution: ChartResolution) -> String {
        let (y, m, _) = civil(n)
        switch resolution {
        case .day, .week: return dateText(n)
        case .month: return "\(y)-\(m < 10 ? "0" : "")\(m)"
        case .quarter: return "\(y)-Q\((m - 1) / 3 + 1)"
        case .year: return "\(y)"
        }
    }

    /// The periods from the one holding day `from` to the one holding day `to`, none starting
    /// after `asOfMs`; nil when there would be more than `limit` (the first `limit` when truncating).
    static func periods(fromDay: Int64, toDay: Int64, resolution: ChartResolution, asOfMs: Int64, limit: Int,
                        truncating: Bool = false) -> [ChartPeriod]? {
        var out: [ChartPeriod] = []
        var day = start(of: fromDay, resolution)
        while day <= toDay && day * dayMs <= asOfMs {
            if out.count == limit { return truncating ? out : nil }
            let end = next(after: day, resolution)
            let endMs = end * dayMs
            out.append(ChartPeriod(label: label(day, resolution), startMs: day * dayMs, endMs: endMs,
                                   atMs: min(endMs - 1, asOfMs), incomplete: asOfMs < endMs - 1))
            day = end
        }
        return out
    }

    /// The first day of the default range: `count` periods back from the one holding `toDay`.
    static func defaultFrom(toDay: Int64, resolution: ChartResolution) -> Int64 {
        var day = start(of: toDay, resolution)
        for _ in 1..<resolution.defaultCount { day = start(of: day - 1, resolution) }
        return day
    }
}
