import Foundation
import StoreModel

/// How long subscription periods, grace periods and billing retry last under a time rate.
///
/// Real time and the day-based rates use calendar periods (the clock itself runs faster). The
/// renewal-based rates use Apple's documented table (reference §2.2):
/// - `monthlyRenewalEvery…`: 1W/1M/2M/3M/6M/1Y map to the listed durations. The 15-minute row is
///   not documented; it follows the pattern of the others (1W 5 min … 1Y 3 h). Periods outside the
///   table (offer periods in days) scale with the month.
/// - `oneRenewalEvery…`: every period lasts the fixed duration.
/// Grace and billing retry: real time gives 6 days (weekly) or 16 days (other periods) of grace
/// and 60 days of retry; `monthlyRenewalEveryThirtySeconds` 9 s / 15 s and 1 min; the fixed rates
/// one period of grace and two of retry. For the other monthly rates Apple documents none; we scale
/// the 30-second row by the month's duration (grace 0.9 × week or 0.5 × month, retry 2 × month).
public enum RenewalSchedule {
    /// When a period that starts at `startMs` ends.
    public static func end(of period: SubscriptionPeriod, count: Int = 1, startingAt startMs: Int64, rate: TimeRate) -> Int64 {
        if let table = compressed(rate) {
            return startMs + Int64(table(period) * 1000) * Int64(max(count, 1))
        }
        return period.adding(to: Date(milliseconds: startMs), times: max(count, 1)).milliseconds
    }

    /// The grace period after a failed renewal of a subscription with `period`.
    public static func gracePeriodMs(for period: SubscriptionPeriod, rate: TimeRate) -> Int64 {
        let weekly = period.unit == .week || (period.unit == .day && period.value <= 7)
        switch rate {
        case .apple(let apple) where apple.rawValue >= 1000:
            return Int64(fixedSeconds(apple) * 1000)
        case .apple(let apple) where apple.rawValue >= 10:
            let table = monthlyTable(apple)
            return Int64((weekly ? 0.9 * table.week : 0.5 * table.month) * 1000)
        default:
            return (weekly ? 6 : 16) * 86_400_000
        }
    }

    /// How long the App Store keeps retrying a failed renewal.
    public static func billingRetryMs(for period: SubscriptionPeriod, rate: TimeRate) -> Int64 {
        switch rate {
        case .apple(let apple) where apple.rawValue >= 1000:
            return Int64(2 * fixedSeconds(apple) * 1000)
        case .apple(let apple) where apple.rawValue >= 10:
            return Int64(2 * monthlyTable(apple).month * 1000)
        default:
            return 60 * 86_400_000
        }
    }

    /// Seconds per period when the rate compresses periods; nil for calendar periods.
    static func compressed(_ rate: TimeRate) -> ((SubscriptionPeriod) -> Double)? {
        guard case .apple(let apple) = rate, apple.rawValue >= 10 else { return nil }
        if apple.rawValue >= 1000 {
            let seconds = fixedSeconds(apple)
            return { _ in seconds }
        }
        let table = monthlyTable(apple)
        return { period in table.seconds(for: period) }
    }

    static func fixedSeconds(_ rate: AppleTimeRate) -> Double {
        switch rate {
        case .oneRenewalEveryFifteenMinutes: 900
        case .oneRenewalEveryFiveMinutes: 300
        case .oneRenewalEveryMinute: 60
        case .oneRenewalEveryThirtySeconds: 30
        case .oneRenewalEveryTenSeconds: 10
        default: 2
        }
    }

    struct MonthlyTable {
        var week: Double, month: Double, twoMonths: Double, threeMonths: Double, sixMonths: Double, year: Double

        func seconds(for period: SubscriptionPeriod) -> Double {
            switch (period.unit, period.value) {
            case (.week, 1): week
            case (.month, 1): month
            case (.month, 2): twoMonths
            case (.month, 3): threeMonths
            case (.month, 6): sixMonths
            case (.year, 1): year
            case (.day, let days): month * Double(days) / 30
            case (.week, let weeks): week * Double(weeks)
            case (.month, let months): month * Double(months)
            case (.year, let years): year * Double(years)
            }
        }
    }

    static func monthlyTable(_ rate: AppleTimeRate) -> MonthlyTable {
        switch rate {
        case .monthlyRenewalEveryHour:
            MonthlyTable(week: 900, month: 3600, twoMonths: 7200, threeMonths: 10_800, sixMonths: 21_600, year: 43_200)
        case .monthlyRenewalEveryThirtyMinutes:
            MonthlyTable(week: 600, month: 1800, twoMonths: 3600, threeMonths: 5400, sixMonths: 10_800, year: 21_600)
        case .monthlyRenewalEveryFifteenMinutes:
            MonthlyTable(week: 300, month: 900, twoMonths: 1800, threeMonths: 2700, sixMonths: 5400, year: 10_800)
        case .monthlyRenewalEveryFiveMinutes:
            MonthlyTable(week: 180, month: 300, twoMonths: 600, threeMonths: 900, sixMonths: 1800, year: 3600)
        default:
            MonthlyTable(week: 10, month: 30, twoMonths: 60, threeMonths: 90, sixMonths: 180, year: 360)
        }
    }
}
