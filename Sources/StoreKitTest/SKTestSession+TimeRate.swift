import StoreEngine

extension SKTestSession {
    /// How fast the session's clock runs, with Apple's raw values (`SKTestTimeRate`; also the
    /// numbers a `.storekit` file's `_timeRate` holds). Renewals, grace periods and billing
    /// retries fall due on the session's clock, so a faster rate makes them come sooner.
    public enum TimeRate: Int, Sendable, Hashable {
        case realTime = 0
        @available(*, deprecated, renamed: "monthlyRenewalEveryHour")
        case oneHourIsOneDay = 1
        @available(*, deprecated)
        case thirtyMinutesIsOneDay = 2
        @available(*, deprecated)
        case fiveMinutesIsOneDay = 3
        @available(*, deprecated, renamed: "monthlyRenewalEveryThirtyMinutes")
        case oneMinuteIsOneDay = 4
        @available(*, deprecated, renamed: "monthlyRenewalEveryFifteenMinutes")
        case thirtySecondsIsOneDay = 5
        @available(*, deprecated, renamed: "monthlyRenewalEveryThirtySeconds")
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

        /// The engine's rate with the same raw value (every case has one).
        var engineRate: StoreEngine.TimeRate {
            .apple(AppleTimeRate(rawValue: rawValue) ?? .realTime)
        }

        init(engine rate: StoreEngine.TimeRate) {
            if case .apple(let apple) = rate, let mine = TimeRate(rawValue: apple.rawValue) {
                self = mine
            } else {
                self = .realTime
            }
        }
    }
}
