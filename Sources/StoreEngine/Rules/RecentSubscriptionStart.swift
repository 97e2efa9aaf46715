/// `recentSubscriptionStartDate`: "the earliest start date of a subscription in a series of
/// auto-renewable subscription purchases that ignores all lapses of paid service shorter than
/// 60 days" (Apple). The App Store Server API page is exact about the edge: the date is "the start
/// date of the most recent auto-renewable subscription purchase that's preceded by a gap in paid
/// service of more than 60 days", and the talk says gaps "of 60 days or less" are ignored. So a
/// resubscription exactly 60 days after the last expiry still continues the series.
///
/// Apple's sandbox shortens the gap to 10 minutes because sandbox subscriptions renew in minutes;
/// our worlds run subscriptions on a world clock with real period lengths instead, so the
/// production rule applies in both environments.
public enum RecentSubscriptionStart {
    /// The longest lapse, 60 days, that still continues the series.
    public static let maxLapseMs: Int64 = 60 * 86_400_000

    /// The `recentSubscriptionStartDate` after a resubscription: unchanged after a lapse of 60 days
    /// or less, else the resubscription date.
    public static func afterResubscribing(previousStartMs: Int64, lastExpiryMs: Int64, resubscribedMs: Int64) -> Int64 {
        resubscribedMs - lastExpiryMs <= maxLapseMs ? previousStartMs : resubscribedMs
    }
}
