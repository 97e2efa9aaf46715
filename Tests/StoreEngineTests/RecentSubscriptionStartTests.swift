import StoreEngine
import Testing

/// The 60-day rule of `recentSubscriptionStartDate`. Apple's App Store Server API documentation
/// (recentSubscriptionStartDate): the series restarts at "the most recent auto-renewable
/// subscription purchase that's preceded by a gap in paid service of more than 60 days"; the
/// WWDC talk: lapses "of 60 days or less" are ignored.
@Suite struct RecentSubscriptionStartTests {
    let start: Int64 = 1_700_000_000_000
    let expiry: Int64 = 1_702_000_000_000
    let day: Int64 = 86_400_000

    @Test func aGapJustUnderSixtyDaysKeepsTheSeries() {
        let back = expiry + 59 * day + 23 * 3_600_000
        #expect(RecentSubscriptionStart.afterResubscribing(previousStartMs: start, lastExpiryMs: expiry, resubscribedMs: back) == start)
    }

    @Test func aGapOfExactlySixtyDaysKeepsTheSeries() {
        let back = expiry + 60 * day
        #expect(RecentSubscriptionStart.afterResubscribing(previousStartMs: start, lastExpiryMs: expiry, resubscribedMs: back) == start)
    }

    @Test func aGapOneMillisecondOverSixtyDaysStartsANewSeries() {
        let back = expiry + 60 * day + 1
        #expect(RecentSubscriptionStart.afterResubscribing(previousStartMs: start, lastExpiryMs: expiry, resubscribedMs: back) == back)
    }
}
