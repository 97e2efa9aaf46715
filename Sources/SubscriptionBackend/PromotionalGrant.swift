import Foundation

/// Entitlements given by hand, for support or the press: RevenueCat's promotional grants. A
/// grant runs from the moment it is made for one of RevenueCat's durations (or to a given end),
/// counts as `store: "promotional"`, and ends early when revoked.
public enum PromotionalGrant {
    /// RevenueCat's grant durations; `lifetime` never ends.
    public enum Duration: String, Codable, Sendable, CaseIterable {
        case daily, threeDay = "three_day", weekly, twoWeek = "two_week", monthly, twoMonth = "two_month"
        case threeMonth = "three_month", sixMonth = "six_month", yearly, lifetime
    }

    /// Where the grant ends, by the Gregorian calendar in UTC (a month from 31 January is the end of February).
    static func end(of duration: Duration, fromMs start: Int64) -> Int64? {
        let (component, amount): (Calendar.Component, Int)
        switch duration {
        case .daily: (component, amount) = (.day, 1)
        case .threeDay: (component, amount) = (.day, 3)
        case .weekly: (component, amount) = (.day, 7)
        case .twoWeek: (component, amount) = (.day, 14)
        case .monthly: (component, amount) = (.month, 1)
        case .twoMonth: (component, amount) = (.month, 2)
        case .threeMonth: (component, amount) = (.month, 3)
        case .sixMonth: (component, amount) = (.month, 6)
        case .yearly: (component, amount) = (.year, 1)
        case .lifetime: return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: Double(start) / 1000)
        guard let end = calendar.date(byAdding: component, value: amount, to: date) else { return nil }
        return start + Int64((end.timeIntervalSince(date) * 1000).rounded())
    }

    /// The entitlement a grant gives, judged at `nowMs`. Its product ID names the grant's duration,
    /// as RevenueCat's `rc_promo_…` IDs do.
    static func entitlement(_ grant: GrantRow, nowMs: Int64) -> CustomerInfo.Entitlement {
        let ends = grant.revokedMs.map { min($0, grant.expiresMs ?? $0) } ?? grant.expiresMs
        return CustomerInfo.Entitlement(
            isActive: grant.startMs <= nowMs && ends.map { $0 > nowMs } ?? true, productId: "promotional.\(grant.duration)",
            expiresDate: ends, purchaseDate: grant.startMs, willRenew: false, periodType: "normal", billingIssueDetectedAt: nil,
            gracePeriodExpiresDate: nil, environment: "Production", ownershipType: "PURCHASED", bundleId: grant.bundleId,
            store: "promotional")
    }
}

/// A grant refused: for an app the backend does not serve (`unknownApp`), else for its meaning
/// (an end not later than now, neither or both of a duration and an end, a deleted customer).
public struct GrantRefusal: Error, Sendable, CustomStringConvertible {
    public var description: String
    public var unknownApp = false
}
