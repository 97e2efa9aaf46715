import Foundation
import Testing
@testable import StoreModel

struct SubscriptionPeriodTests {
    @Test(arguments: [
        ("P3D", SubscriptionPeriod.Unit.day, 3), ("P1W", .week, 1), ("P2W", .week, 2), ("P1M", .month, 1),
        ("P2M", .month, 2), ("P3M", .month, 3), ("P6M", .month, 6), ("P1Y", .year, 1), ("P14D", .day, 14),
    ])
    func parses(text: String, unit: SubscriptionPeriod.Unit, value: Int) {
        let parsed = SubscriptionPeriod(iso8601: text)
        #expect(parsed == SubscriptionPeriod(unit: unit, value: value))
        #expect(parsed?.iso8601 == text)
        #expect(parsed?.description == text)
    }

    @Test(arguments: ["P5X", "P", "P0M", "1M", "P-1M", "-P1M", "PM", "P1.5M", "P1Y2M", "PT1H", "p1m", "P1m", "", "P 1M", "P9999999M", "P1MM", "P١M"])
    func rejects(text: String) {
        #expect(SubscriptionPeriod(iso8601: text) == nil)
    }

    @Test func multiplied() {
        #expect(period("P1M").multiplied(by: 3) == period("P3M"))
        #expect(period("P1W").multiplied(by: 2) == period("P2W"))
        #expect(period("P1Y").multiplied(by: 1) == period("P1Y"))
        #expect(period("P1M").multiplied(by: 0) == period("P1M"))
        #expect(SubscriptionPeriod(unit: .day, value: Int.max).multiplied(by: 2).value == Int.max)
    }

    private func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text) ?? .distantPast
    }

    @Test func calendarArithmeticInUTC() {
        #expect(period("P1M").adding(to: date("2023-01-31T10:00:00Z")) == date("2023-02-28T10:00:00Z"))
        #expect(period("P1M").adding(to: date("2024-01-31T10:00:00Z")) == date("2024-02-29T10:00:00Z"))
        #expect(period("P1M").adding(to: date("2024-01-31T10:00:00Z"), times: 2) == date("2024-03-31T10:00:00Z"))
        #expect(period("P1M").adding(to: date("2023-10-19T01:45:36Z")) == date("2023-11-19T01:45:36Z"))
        #expect(period("P1W").adding(to: date("2024-12-29T23:30:00Z")) == date("2025-01-05T23:30:00Z"))
        #expect(period("P3D").adding(to: date("2024-02-28T00:00:00Z")) == date("2024-03-02T00:00:00Z"))
        #expect(period("P1Y").adding(to: date("2024-02-29T12:00:00Z")) == date("2025-02-28T12:00:00Z"))
        #expect(period("P2W").adding(to: date("2024-03-01T00:00:00Z"), times: 3) == date("2024-04-12T00:00:00Z"))
        // UTC: a DST change in any zone does not move the time of day.
        #expect(period("P1M").adding(to: date("2024-03-01T09:00:00Z")) == date("2024-04-01T09:00:00Z"))
        #expect(period("P1M").adding(to: date("2024-03-31T00:00:00Z"), times: -1) == date("2024-02-29T00:00:00Z"))
        // Never traps, even far outside any sensible range.
        _ = SubscriptionPeriod(unit: .year, value: 100_000).adding(to: .distantFuture, times: Int.max)
    }

    @Test func productKindMappings() {
        #expect(ProductKind.allCases.map(\.transactionType) == [.consumable, .nonConsumable, .nonRenewing, .autoRenewable])
        #expect(ProductKind.allCases.map(\.queryValue) == ["CONSUMABLE", "NON_CONSUMABLE", "NON_RENEWABLE", "AUTO_RENEWABLE"])
        #expect(ProductKind.allCases.map(\.rawValue) == ["Consumable", "NonConsumable", "NonRenewingSubscription", "RecurringSubscription"])
        #expect(PaymentMode.allCases.map(\.discountType) == [.freeTrial, .payAsYouGo, .payUpFront])
        #expect(OfferKind.allCases.map(\.offerType.rawValue) == [1, 2, 3, 4])
    }
}
