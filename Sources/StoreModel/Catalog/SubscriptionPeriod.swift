import Foundation

/// An ISO 8601 duration as `.storekit` files and StoreKit use it (`P1W`, `P1M`, `P1Y`, `P3D`).
/// It is kept as unit + value, not as seconds, because a month is a calendar month: renewal dates
/// must land on the same day of the month, as at Apple.
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
    /// The ISO 8601 units a period can count in; a period has exactly one.
    public enum Unit: String, Sendable, CaseIterable {
        case day, week, month, year

        /// The ISO 8601 designator letter.
        var designator: Character {
            switch self {
            case .day: return "D"
            case .week: return "W"
            case .month: return "M"
            case .year: return "Y"
            }
        }
    }

    /// The unit `value` counts; months and years are calendar units, not fixed seconds.
    public var unit: Unit
    /// How many units, 1 or more when parsed from text.
    public var value: Int

    /// A period of `value` units; unlike `init?(iso8601:)`, the value is not checked.
    public init(unit: Unit, value: Int) {
        self.unit = unit
        self.value = value
    }

    /// The largest count accepted when parsing; far beyond any real period, small enough that
    /// arithmetic on it can never overflow.
    static let maxValue = 100_000

    /// Parses `P<n><D|W|M|Y>` with n ≥ 1 (`P1W`, `P14D`). Returns nil for anything else, including
    /// combined durations (`P1Y2M`), time parts (`PT1H`), zero (`P0M`), signs and missing `P`.
    public init?(iso8601: String) {
        let chars = Array(iso8601)
        guard chars.count >= 3, chars[0] == "P", let letter = chars.last else { return nil }
        let digits = chars[1..<(chars.count - 1)]
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(String(digits)), value >= 1, value <= Self.maxValue else { return nil }
        guard let unit = Unit.allCases.first(where: { $0.designator == letter }) else { return nil }
        self.init(unit: unit, value: value)
    }

    /// The ISO 8601 text, e.g. `P1M`.
    public var iso8601: String {
        "P\(value)\(unit.designator)"
    }

    /// The ISO 8601 text (`P1M`), so logs and tables show what the file says.
    public var description: String { iso8601 }

    /// The same unit repeated `n` times (P1M × 3 = P3M); how long a multi-period offer lasts.
    /// Values below 1 count as 1, and the result saturates instead of overflowing.
    public func multiplied(by n: Int) -> SubscriptionPeriod {
        let factor = max(n, 1)
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return SubscriptionPeriod(unit: unit, value: overflow ? Int.max : product)
    }

    /// A UTC Gregorian calendar, shared so date arithmetic never depends on the host's time zone.
    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()

    /// `date` plus this period `times` times, in the UTC Gregorian calendar: a month is a calendar
    /// month (Jan 31 + P1M = Feb 28 or 29) and a week is 7 days. The whole span is added in one step,
    /// so Jan 31 + P1M × 2 is Mar 31, not Mar 28.
    public func adding(to date: Date, times: Int = 1) -> Date {
        let (count, overflow) = value.multipliedReportingOverflow(by: times)
        let amount = overflow ? (times < 0 ? Int.min / 8 : Int.max / 8) : count
        var components = DateComponents()
        switch unit {
        case .day: components.day = amount
        case .week: components.day = amount.multipliedReportingOverflow(by: 7).partialValue
        case .month: components.month = amount
        case .year: components.year = amount
        }
        if let result = Self.utcCalendar.date(byAdding: components, to: date) {
            return result
        }
        // Out of the calendar's range: fall back to an average length rather than trapping.
        let seconds: Double
        switch unit {
        case .day: seconds = 86_400
        case .week: seconds = 604_800
        case .month: seconds = 2_629_746
        case .year: seconds = 31_556_952
        }
        return date.addingTimeInterval(seconds * Double(value) * Double(times))
    }
}
