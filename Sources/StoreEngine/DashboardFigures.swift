import Foundation
import StoreModel
import StoreStorage

/// The figures the dashboard draws, counted over the world's simulated time (UTC days and hours
/// ending at the world's now): what people would rather look at than read.
public struct DashboardFigures: Sendable, Equatable {
    /// One UTC day of the world's time: its active subscriptions and renewals.
    public struct Day: Sendable, Equatable {
        /// Midnight UTC at the start of the day.
        public var startMs: Int64
        /// Subscriptions entitled at the end of the day (at now for today): distinct original
        /// transactions with a period covering that instant, not revoked by then.
        public var activeSubscriptions: Int
        /// Auto-renewable transactions bought that day that continue a subscription.
        public var renewals: Int
    }

    /// What was paid in one currency, day by day.
    public struct Revenue: Sendable, Equatable {
        /// The ISO 4217 currency code.
        public var currency: String
        /// Milliunits per day, aligned with `days`.
        public var perDay: [Int64]
    }

    /// One hour of notification delivery attempts.
    public struct Hour: Sendable, Equatable {
        /// The start of the hour.
        public var startMs: Int64
        /// Attempts that hour that got `SUCCESS`.
        public var successes: Int
        /// Attempts that hour that did not.
        public var failures: Int
    }

    /// Each day from the first purchase (or the requested number of days back, if later) up to today.
    public var days: [Day]
    /// Purchases' prices (family-shared copies left out), per currency, by currency code.
    public var revenue: [Revenue]
    /// The requested number of hours up to the current one, oldest first.
    public var deliveries: [Hour]

    static let dayMs: Int64 = 86_400_000
    static let hourMs: Int64 = 3_600_000

    init(transactions: [TransactionRecord], notifications: [NotificationSummary], nowMs: Int64, days dayCount: Int, hours hourCount: Int) {
        let today = Self.floor(nowMs, Self.dayMs)
        let firstDay = max(Self.floor(transactions.map(\.purchaseMs).min() ?? nowMs, Self.dayMs), today - Int64(max(1, dayCount) - 1) * Self.dayMs)
        let starts = stride(from: firstDay, through: today, by: Int(Self.dayMs)).map { $0 }
        let subscriptions = transactions.filter { $0.productKind == ProductKind.autoRenewable.rawValue && $0.expiresMs != nil }
        days = starts.map { start in
            let instant = min(start + Self.dayMs - 1, nowMs)
            let active = Set(subscriptions.filter {
                $0.purchaseMs <= instant && ($0.expiresMs ?? 0) > instant && ($0.revokedMs.map { $0 > instant } ?? true)
            }.map(\.originalId))
            let renewals = subscriptions.filter { $0.id != $0.originalId && $0.purchaseMs >= start && $0.purchaseMs < start + Self.dayMs }.count
            return Day(startMs: start, activeSubscriptions: active.count, renewals: renewals)
        }
        var byCurrency: [String: [Int64]] = [:]
        for record in transactions where record.purchaseMs >= firstDay && record.ownership != InAppOwnershipType.familyShared.rawValue {
            guard let payload = try? TransactionPayload(json: Array(record.payload.utf8)) else { continue }
            let index = Int((Self.floor(record.purchaseMs, Self.dayMs) - firstDay) / Self.dayMs)
            guard index >= 0, index < starts.count else { continue }
            byCurrency[payload.currency, default: Array(repeating: 0, count: starts.count)][index] += payload.price * Int64(max(1, payload.quantity))
        }
        revenue = byCurrency.keys.sorted().map { Revenue(currency: $0, perDay: byCurrency[$0]!) }
        let thisHour = Self.floor(nowMs, Self.hourMs)
        let firstHour = thisHour - Int64(max(1, hourCount) - 1) * Self.hourMs
        var hours = stride(from: firstHour, through: thisHour, by: Int(Self.hourMs)).map { Hour(startMs: $0, successes: 0, failures: 0) }
        for attempt in notifications.flatMap(\.sendAttempts) where attempt.attemptDate >= firstHour && attempt.attemptDate < thisHour + Self.hourMs {
            let index = Int((attempt.attemptDate - firstHour) / Self.hourMs)
            if attempt.sendAttemptResult == "SUCCESS" { hours[index].successes += 1 } else { hours[index].failures += 1 }
        }
        deliveries = hours
    }

    static func floor(_ ms: Int64, _ unit: Int64) -> Int64 {
        ms >= 0 ? ms / unit * unit : -((-ms + unit - 1) / unit) * unit
    }
}
