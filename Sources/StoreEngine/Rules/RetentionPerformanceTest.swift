/// The Retention Messaging performance test's rules (Retention Messaging API 1.3.0: Initiate
/// Performance Test, Get Performance Test Results): the parameters a test runs with, what counts
/// as a successful call of the developer's Get Retention Message endpoint, and how the figures
/// and the PASS/FAIL verdict come from the calls. Pure: the HTTP calls are StoreNotifications'.
///
/// Apple's facts: "To pass the performance test, your server must respond to requests within
/// approximately 700 ms in the sandbox environment"; `totalDuration` is in milliseconds ("add
/// the `totalDuration` to the time, in milliseconds, you initiated the test"); the test runs only
/// in the sandbox, for an active auto-renewable subscription's original transaction. Apple does
/// not publish its request count, concurrency or success-rate threshold: those are ours.
public enum RetentionPerformanceTest {
    /// The parameters every test runs with (`PerformanceTestConfig`).
    public static let config = PerformanceTestConfig(
        maxConcurrentRequests: 10, totalRequests: 50, totalDuration: 5_000,
        responseTimeThreshold: 700, successRateThreshold: 90)

    /// Time after `totalDuration` when a test that never reported (the store stopped while it
    /// ran) is reported as failed.
    public static let abandonedAfterMs: Int64 = 10_000

    /// What one call of the Get Retention Message endpoint came to.
    public enum CallOutcome: Sendable, Equatable {
        /// An HTTP answer: its status and body.
        case answered(status: Int, body: [UInt8])
        /// No usable HTTP answer, already named by Apple's `SendAttemptResult` raw value.
        case failed(sendAttemptResult: String)
    }

    /// The `SendAttemptResult` of a call: SUCCESS for HTTP 200 with a `RealtimeResponseBody`
    /// (a JSON object naming at most one of its mutually exclusive options: Apple's `message`
    /// page, "you can choose from mutually exclusive options"), INVALID_RESPONSE for any other
    /// 200 body, UNSUCCESSFUL_HTTP_RESPONSE_CODE for any other status.
    public static func sendAttemptResult(of outcome: CallOutcome) -> String {
        switch outcome {
        case .failed(let result):
            return result
        case .answered(let status, let body):
            guard status == 200 else { return "UNSUCCESSFUL_HTTP_RESPONSE_CODE" }
            return isRealtimeResponseBody(body) ? "SUCCESS" : "INVALID_RESPONSE"
        }
    }

    static let exclusiveOptions = ["message", "alternateProduct", "promotionalOffer", "advancedCommerceInfo"]

    static func isRealtimeResponseBody(_ body: [UInt8]) -> Bool {
        guard let fields = JSONValue.object(from: .init(body)) else { return false }
        var chosen = 0
        for key in exclusiveOptions {
            switch fields[key] {
            case nil, .null?: continue
            case .object?: chosen += 1
            default: return false
            }
        }
        return chosen <= 1
    }

    /// One finished call: its `SendAttemptResult` and, when an HTTP answer came, how long it took.
    public struct Call: Codable, Sendable, Equatable {
        /// How the call went, as Apple's `SendAttemptResult` names it (`SUCCESS`, `TIMED_OUT`, …).
        public var sendAttemptResult: String
        /// How long the HTTP answer took; nil when none came.
        public var responseMs: Int64?

        /// A finished call with its result and response time.
        public init(sendAttemptResult: String, responseMs: Int64?) {
            self.sendAttemptResult = sendAttemptResult
            self.responseMs = responseMs
        }
    }

    /// The figures of a finished test. `successRate` is the whole percentage of calls that
    /// succeeded (rounded down, so a verdict never flatters); the test passes when it reaches
    /// `successRateThreshold`. A success is always within `responseTimeThreshold`: a call still
    /// unanswered then is TIMED_OUT. Response times are of the calls that got an HTTP answer,
    /// nearest-rank percentiles in milliseconds.
    public static func summary(of calls: [Call], config: PerformanceTestConfig) -> PerformanceTestSummary {
        let total = max(config.totalRequests, calls.count)
        let successes = calls.filter { $0.sendAttemptResult == "SUCCESS" }.count
        let rate = total == 0 ? 0 : successes * 100 / total
        var failures: [String: Int] = [:]
        for call in calls where call.sendAttemptResult != "SUCCESS" { failures[call.sendAttemptResult, default: 0] += 1 }
        let unsent = total - calls.count
        if unsent > 0 { failures["OTHER", default: 0] += unsent }
        let times = calls.compactMap(\.responseMs).sorted()
        var responseTimes: PerformanceTestResponseTimes?
        if !times.isEmpty {
            func rank(_ percent: Int) -> Int64 { times[max(0, (percent * times.count + 99) / 100 - 1)] }
            let sum = times.reduce(0, +)
            responseTimes = PerformanceTestResponseTimes(
                average: (sum + Int64(times.count) / 2) / Int64(times.count), p50: rank(50), p90: rank(90), p95: rank(95), p99: rank(99))
        }
        return PerformanceTestSummary(
            result: rate >= config.successRateThreshold ? "PASS" : "FAIL", successRate: rate,
            responseTimes: responseTimes, failures: failures)
    }
}

/// Apple's `PerformanceTestConfig`.
public struct PerformanceTestConfig: Codable, Sendable, Equatable {
    /// The most calls in flight at once.
    public var maxConcurrentRequests: Int
    /// How many calls the test makes in all.
    public var totalRequests: Int
    /// Milliseconds from the start by which the test is over.
    public var totalDuration: Int64
    /// Milliseconds a call may take.
    public var responseTimeThreshold: Int
    /// The percentage of successful calls needed to pass.
    public var successRateThreshold: Int
}

/// Apple's `PerformanceTestResponseTimes`, in milliseconds.
public struct PerformanceTestResponseTimes: Codable, Sendable, Equatable {
    /// The mean response time, rounded to the nearest millisecond.
    public var average: Int64
    /// The median response time (nearest rank).
    public var p50: Int64
    /// The 90th percentile response time (nearest rank).
    public var p90: Int64
    /// The 95th percentile response time (nearest rank).
    public var p95: Int64
    /// The 99th percentile response time (nearest rank).
    public var p99: Int64
}

/// The verdict and figures of a finished test.
public struct PerformanceTestSummary: Codable, Sendable, Equatable {
    /// `PerformanceTestStatus`: PASS or FAIL.
    public var result: String
    /// The whole percentage of calls that succeeded, rounded down.
    public var successRate: Int
    /// Figures over the calls that got an HTTP answer; nil when none did.
    public var responseTimes: PerformanceTestResponseTimes?
    /// Failed calls counted by `SendAttemptResult`.
    public var failures: [String: Int]
}
