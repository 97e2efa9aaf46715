/// `recentSubscriptionStartDate`: "the earliest start date of a subscription in a series of
/// auto-renewable subscription purchases that ignores all lapses of paid service shorter than
/// 60 days" (Apple). A resubscription within 60 days of the last expiry continues the series.
public enum RecentSubscriptionStart {
    public static let maxLapseMs: Int64 = 60 * 86_400_000

    public static func afterResubscribing(previousStartMs: Int64, lastExpiryMs: Int64, resubscribedMs: Int64) -> Int64 {
        resubscribedMs - lastExpiryMs < maxLapseMs ? previousStartMs : resubscribedMs
    }
}
