import StoreModel

/// Billing retry and grace-period recovery (Apple's "Reducing involuntary subscriber churn" and
/// "Enable billing grace period"): after a failed renewal, retries run until billing works or
/// the retry period ends; the grace period, when on, keeps access for its first part.
enum BillingRetry {
    /// The next thing to happen in billing retry: a retry attempt, the grace period's end, or the
    /// end of retrying, whichever comes first. Attempts repeat every 1/60 of the retry period
    /// (daily in real time); Apple does not publish its cadence.
    static func nextEvent(
        of chain: SubscriptionChain, after nowMs: Int64, period: SubscriptionPeriod, rate: TimeRate
    ) -> (event: SubscriptionChain.NextEvent, atMs: Int64) {
        let step = max(RenewalSchedule.billingRetryMs(for: period, rate: rate) / 60, 1)
        var candidates: [(SubscriptionChain.NextEvent, Int64)] = [(.retryAttempt, nowMs + step)]
        if chain.state == .gracePeriod, let grace = chain.gracePeriodExpiresMs { candidates.append((.gracePeriodEnd, grace)) }
        if let end = chain.billingRetryEndsMs { candidates.append((.billingRetryEnd, end)) }
        let next = candidates.min { $0.1 < $1.1 }!
        return (next.0, next.1)
    }

    /// Where the period after a recovery starts: within the grace period the renewal date stays
    /// as it was; after it, a new period starts on the recovery date.
    static func recoveredPeriodStartMs(of chain: SubscriptionChain, recoveredAt nowMs: Int64) -> Int64 {
        chain.state == .gracePeriod ? chain.expiresMs : nowMs
    }
}
