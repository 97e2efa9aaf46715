import Foundation
import StoreEngine
import StoreModel
import Testing

/// `openstore time advance` and `POST …/time/advance` read durations the same way.
struct DurationParserTests {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    @Test(arguments: [
        ("45s", 45_000), ("30m", 1_800_000), ("12h", 12 * hour), ("36h", 36 * hour), ("1d", day), ("2w", 14 * day),
        ("1500", 1500), ("250ms", 250), ("1.5h", 90 * 60_000), ("3 days", 3 * day), ("10min", 600_000), (" 2H ", 2 * hour),
        ("P3D", 3 * day), ("P2W", 14 * day), ("PT12H", 12 * hour), ("PT30M", 1_800_000), ("PT45S", 45_000), ("0d", 0),
    ] as [(String, Int64)])
    func fixedLengths(text: String, ms: Int64) throws {
        #expect(try DurationParser.parse(text) == .fixed(ms: ms))
    }

    @Test(arguments: [
        ("1M", SubscriptionPeriod(unit: .month, value: 1)), ("3mo", SubscriptionPeriod(unit: .month, value: 3)),
        ("2 months", SubscriptionPeriod(unit: .month, value: 2)), ("1y", SubscriptionPeriod(unit: .year, value: 1)),
        ("1Y", SubscriptionPeriod(unit: .year, value: 1)), ("P1Y", SubscriptionPeriod(unit: .year, value: 1)),
        ("P1M", SubscriptionPeriod(unit: .month, value: 1)), ("P18M", SubscriptionPeriod(unit: .month, value: 18)),
    ])
    func calendarSpans(text: String, period: SubscriptionPeriod) throws {
        #expect(try DurationParser.parse(text) == .calendar(period))
    }

    @Test(arguments: ["", "soon", "1x", "-1d", "d", "1.5M", "P", "P1", "PT", "P1H", "PT1D", "P1Y2M", "P1DT2H", "1e5", "P-1D", "1d2h"])
    func rejectsWhatItCannotRead(text: String) {
        #expect(throws: DurationParser.Failure.self) { try DurationParser.parse(text) }
    }

    @Test func refusesJumpsBeyondAHundredYears() throws {
        #expect(throws: DurationParser.Failure.tooLong("101y")) { try DurationParser.parse("101y") }
        #expect(throws: DurationParser.Failure.tooLong("1201M")) { try DurationParser.parse("1201M") }
        #expect(throws: DurationParser.Failure.tooLong("P36601D")) { try DurationParser.parse("P36601D") }
        #expect(try DurationParser.parse("100y") == .calendar(SubscriptionPeriod(unit: .year, value: 100)))
        #expect(throws: DurationParser.Failure.self) { try DurationParser.parse("999999999999999999999d") }
        #expect(throws: DurationParser.Failure.self) { try DurationParser.parse("P999999999999D") }
    }

    @Test func lowercaseMIsMinutesAndUppercaseMIsMonths() throws {
        #expect(try DurationParser.parse("1m") == .fixed(ms: 60_000))
        #expect(try DurationParser.parse("1M") == .calendar(SubscriptionPeriod(unit: .month, value: 1)))
    }

    /// A month from Jan 31 is the end of February, as a subscription period counts it.
    @Test func calendarJumpsFollowTheCalendar() throws {
        let jan31 = Int64(Date(timeIntervalSince1970: 1_706_659_200).timeIntervalSince1970 * 1000) // 2024-01-31T00:00Z
        #expect(try DurationParser.parse("1M").milliseconds(from: jan31) == 29 * Self.day) // 2024 is a leap year
        #expect(try DurationParser.parse("P1Y").milliseconds(from: jan31) == 366 * Self.day)
        #expect(try DurationParser.parse("36h").milliseconds(from: jan31) == 36 * Self.hour)
    }

    @Test func formatsLengthsForPeople() {
        #expect(DurationParser.format(ms: 36 * Self.hour) == "1d 12h")
        #expect(DurationParser.format(ms: 1500) == "1s 500ms")
        #expect(DurationParser.format(ms: 0) == "0s")
    }
}
