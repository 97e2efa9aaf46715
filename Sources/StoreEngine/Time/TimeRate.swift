import Foundation

/// How fast subscription time passes, after `SKTestSession.TimeRate`, plus a plain multiplier.
///
/// Apple's cases come in two kinds. The day-based ones (raw 1–6) make every day pass in less real
/// time, so the whole clock runs faster. The renewal-based ones (raw 10–15 and 1000–1005) leave the
/// clock at real speed and shorten subscription periods instead: with `monthlyRenewalEveryHour` a
/// monthly subscription bought at 10:00 expires at 11:00, as in Xcode. A multiplier speeds the
/// clock up and keeps calendar periods.
public enum TimeRate: Sendable, Equatable, Codable, CustomStringConvertible {
    case apple(AppleTimeRate)
    case multiplier(Double)

    /// One world second per real second, with calendar subscription periods.
    public static let realTime = TimeRate.apple(.realTime)

    /// How many world seconds pass per real second.
    public var clockSpeed: Double {
        switch self {
        case .multiplier(let factor): factor
        case .apple(let rate): rate.secondsPerDay.map { 86_400 / $0 } ?? 1
        }
    }

    /// Parses a CLI or API value: a case name (`oneSecondIsOneDay`), Apple's raw value (`6`, as
    /// `_timeRate` stores it), or a multiplier (`720x`).
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let rate = AppleTimeRate.allCases.first(where: { $0.name.lowercased() == trimmed.lowercased() }) {
            self = .apple(rate)
        } else if let raw = Int(trimmed), let rate = AppleTimeRate(rawValue: raw) {
            self = .apple(rate)
        } else if trimmed.lowercased().hasSuffix("x"), let factor = Double(trimmed.dropLast()), factor > 0, factor.isFinite {
            self = .multiplier(factor)
        } else {
            return nil
        }
    }

    /// The rate as the admin API reads it (openapi.json's `TimeRate`): the case name, or the
    /// multiplier with at most six decimals (`720x`, `0.5x`). The CLI reads more spellings and
    /// sends this.
    public var apiValue: String {
        switch self {
        case .apple(let rate): return rate.name
        case .multiplier(let factor):
            if factor == factor.rounded(), factor >= 1, factor < 1e9 { return "\(Int64(factor))x" }
            var text = String(format: "%.6f", factor)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text + "x"
        }
    }

    /// The case name with its raw value (`oneSecondIsOneDay (6)`), or the multiplier (`720x`).
    public var description: String {
        switch self {
        case .apple(let rate): "\(rate.name) (\(rate.rawValue))"
        case .multiplier(let factor): factor == factor.rounded() && abs(factor) < 1e15 ? "\(Int64(factor))x" : "\(factor)x"
        }
    }
}

/// `SKTestSession.TimeRate`, with the raw values `SKTestSession.h` gives them and `.storekit`
/// files store in `_timeRate` (reference §2.2).
public enum AppleTimeRate: Int, Sendable, CaseIterable, Codable {
    case realTime = 0
    case oneHourIsOneDay = 1
    case thirtyMinutesIsOneDay = 2
    case fiveMinutesIsOneDay = 3
    case oneMinuteIsOneDay = 4
    case thirtySecondsIsOneDay = 5
    case oneSecondIsOneDay = 6
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEveryThirtyMinutes = 11
    case monthlyRenewalEveryFifteenMinutes = 12
    case monthlyRenewalEveryFiveMinutes = 13
    case monthlyRenewalEveryThirtySeconds = 15
    case oneRenewalEveryFifteenMinutes = 1000
    case oneRenewalEveryFiveMinutes = 1001
    case oneRenewalEveryMinute = 1002
    case oneRenewalEveryThirtySeconds = 1003
    case oneRenewalEveryTenSeconds = 1004
    case oneRenewalEveryTwoSeconds = 1005

    /// The case name as Apple spells it (`monthlyRenewalEveryHour`), which `TimeRate.init(_:)` accepts.
    public var name: String { "\(self)" }

    /// Real seconds per world day for the day-based cases; nil for the others.
    var secondsPerDay: Double? {
        switch self {
        case .oneHourIsOneDay: 3600
        case .thirtyMinutesIsOneDay: 1800
        case .fiveMinutesIsOneDay: 300
        case .oneMinuteIsOneDay: 60
        case .thirtySecondsIsOneDay: 30
        case .oneSecondIsOneDay: 1
        default: nil
        }
    }
}
