import Foundation
import StoreModel

/// How far to move a world's clock. Months and years are calendar spans (Jan 31 + 1 month is
/// Feb 28 or 29), so they can only become milliseconds once the world's current time is known;
/// everything shorter is a fixed length.
public enum TimeJump: Sendable, Equatable, CustomStringConvertible {
    case fixed(ms: Int64)
    case calendar(SubscriptionPeriod)

    /// The jump in milliseconds when taken from `nowMs` (UTC Gregorian calendar).
    public func milliseconds(from nowMs: Int64) -> Int64 {
        switch self {
        case .fixed(let ms):
            return ms
        case .calendar(let period):
            let start = Date(timeIntervalSince1970: Double(nowMs) / 1000)
            let end = period.adding(to: start)
            return max(0, Int64((end.timeIntervalSince1970 * 1000).rounded()) - nowMs)
        }
    }

    /// A fixed jump as a duration (`DurationParser.format`), a calendar jump in ISO 8601 (`P1M`).
    public var description: String {
        switch self {
        case .fixed(let ms): DurationParser.format(ms: ms)
        case .calendar(let period): period.iso8601
        }
    }
}

/// Reads the durations people type into `openstore time advance` and the admin API:
/// `45s`, `30m`, `12h`, `1d`, `2w`, `1M` (calendar month), `1y`, a bare number of milliseconds,
/// and ISO 8601 `P1Y`, `P1M`, `P2W`, `P3D`, `PT12H`, `PT30M`, `PT45S`.
/// `m` is minutes and `M` months, as in ISO 8601's own letters; every other unit ignores case.
public enum DurationParser {
    /// Why a text is not a jump: not a duration, or over 100 years.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case invalid(String)
        case tooLong(String)

        /// What was wrong, with examples of what is accepted.
        public var description: String {
            switch self {
            case .invalid(let text):
                "\"\(text)\" is not a duration: use e.g. 45s, 30m, 12h, 1d, 2w, 1M, 1y, P1Y, PT12H or a number of milliseconds"
            case .tooLong(let text):
                "\"\(text)\" is longer than the 100 years a clock may jump at once"
            }
        }
    }

    /// A jump of more than this is refused: far beyond any test, and it bounds the work of one
    /// jump (every subscription renews through it: 570 years of three monthly subscriptions took
    /// 7.5 s in a debug build, and schema fuzzing's world with more timed out at 30 s, seed 2010696046).
    static let maxYears = 100
    static let maxMs: Int64 = Int64(maxYears) * 366 * 86_400_000

    private static let fixedUnits: [String: Int64] = [
        "ms": 1,
        "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
        "m": 60_000, "min": 60_000, "mins": 60_000, "minute": 60_000, "minutes": 60_000,
        "h": 3_600_000, "hr": 3_600_000, "hrs": 3_600_000, "hour": 3_600_000, "hours": 3_600_000,
        "d": 86_400_000, "day": 86_400_000, "days": 86_400_000,
        "w": 604_800_000, "week": 604_800_000, "weeks": 604_800_000,
    ]

    private static let calendarUnits: [String: SubscriptionPeriod.Unit] = [
        "mo": .month, "month": .month, "months": .month,
        "y": .year, "yr": .year, "year": .year, "years": .year,
    ]

    /// The jump a text asks for: months and years as calendar spans, everything else in milliseconds.
    public static func parse(_ text: String) throws(Failure) -> TimeJump {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("P") { return try parseISO(trimmed, original: text) }
        // Split into the number and the unit.
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        guard !number.isEmpty, let value = Double(number), value.isFinite, value >= 0 else { throw .invalid(text) }
        if unit.isEmpty { return try fixed(value, 1, text) }
        // `M` alone is months and `m` minutes; every other unit ignores case.
        if let period = unit == "M" ? .month : calendarUnits[unit.lowercased()] {
            guard let count = Int(number) else { throw .invalid(text) }
            return try calendar(count, period, text)
        }
        guard let factor = fixedUnits[unit.lowercased()] else { throw .invalid(text) }
        return try fixed(value, factor, text)
    }

    /// ISO 8601 with a single component: `P<n>Y|M|W|D` or `PT<n>H|M|S`.
    private static func parseISO(_ text: String, original: String) throws(Failure) -> TimeJump {
        var body = text.dropFirst()
        let timePart = body.hasPrefix("T")
        if timePart { body = body.dropFirst() }
        guard let letter = body.last, body.count >= 2 else { throw .invalid(original) }
        let digits = body.dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 12, let count = Int64(digits) else {
            throw .invalid(original)
        }
        switch (timePart, letter) {
        case (false, "Y"): return try calendar(Int(count), .year, original)
        case (false, "M"): return try calendar(Int(count), .month, original)
        case (false, "W"): return try fixed(Double(count), 604_800_000, original)
        case (false, "D"): return try fixed(Double(count), 86_400_000, original)
        case (true, "H"): return try fixed(Double(count), 3_600_000, original)
        case (true, "M"): return try fixed(Double(count), 60_000, original)
        case (true, "S"): return try fixed(Double(count), 1000, original)
        default: throw .invalid(original)
        }
    }

    private static func fixed(_ value: Double, _ factor: Int64, _ text: String) throws(Failure) -> TimeJump {
        let ms = (value * Double(factor)).rounded()
        guard ms <= Double(maxMs) else { throw .tooLong(text) }
        return .fixed(ms: Int64(ms))
    }

    private static func calendar(_ count: Int, _ unit: SubscriptionPeriod.Unit, _ text: String) throws(Failure) -> TimeJump {
        let limit = unit == .year ? maxYears : 12 * maxYears
        guard count <= limit else { throw .tooLong(text) }
        guard count >= 1 else { return .fixed(ms: 0) }
        return .calendar(SubscriptionPeriod(unit: unit, value: count))
    }

    /// A short human form of a length in milliseconds (`36h`, `1d 12h`, `1500ms`).
    public static func format(ms: Int64) -> String {
        guard ms > 0 else { return "0s" }
        var rest = ms
        var parts: [String] = []
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        if rest > 0 { parts.append("\(rest)ms") }
        return parts.joined(separator: " ")
    }
}
