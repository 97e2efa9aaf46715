/// Apple's delivery schedule for App Store Server Notifications V2 ("Responding to App Store
/// Server Notifications"): in Production, five retries at 1, 12, 24, 48 and 72 hours after the
/// previous attempt (six attempts at most); in Sandbox (and Xcode, LocalTesting) one attempt.
/// Times are on the world clock, so a `time advance` runs the whole schedule.
public enum NotificationRetryPolicy {
    /// The wait before each Production retry: 1, 12, 24, 48 and 72 hours after the failed attempt.
    public static let productionRetryDelaysMs: [Int64] = [1, 12, 24, 48, 72].map { $0 * 3_600_000 }

    /// When the next attempt is due after the `attemptsMade`-th attempt (counted from 1) failed at
    /// `attemptMs`; nil when no attempt is left.
    public static func nextAttemptMs(afterFailedAttempt attemptsMade: Int, at attemptMs: Int64, environment: String) -> Int64? {
        guard environment == "Production", attemptsMade >= 1, attemptsMade <= productionRetryDelaysMs.count else { return nil }
        return attemptMs + productionRetryDelaysMs[attemptsMade - 1]
    }

    /// How long Notification History keeps a notification: 180 days in Production, 30 elsewhere.
    public static func retentionMs(environment: String) -> Int64 {
        (environment == "Production" ? 180 : 30) * 86_400_000
    }
}
