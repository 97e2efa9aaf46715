import Testing
@testable import StoreEngine

/// The Retention Messaging performance test's rules (`Rules/RetentionPerformanceTest.swift`).
/// Apple (Initiate Performance Test): "To pass the performance test, your server must respond to
/// requests within approximately 700 ms in the sandbox environment." `RealtimeResponseBody`'s
/// options are mutually exclusive (Apple's `message` page: "you can choose from mutually
/// exclusive options"). The HTTP side is checked end to end in compat/test_retention_messaging.py.
@Suite struct RetentionPerformanceTestTests {
    typealias Rules = RetentionPerformanceTest

    @Test func theThresholdIsApples700Milliseconds() {
        #expect(Rules.config.responseTimeThreshold == 700)
        #expect(Rules.config.maxConcurrentRequests <= Rules.config.totalRequests)
        // Every call can finish in totalDuration even if each one times out.
        let rounds = (Rules.config.totalRequests + Rules.config.maxConcurrentRequests - 1) / Rules.config.maxConcurrentRequests
        #expect(Int64(rounds * Rules.config.responseTimeThreshold) <= Rules.config.totalDuration)
    }

    @Test func aCallSucceedsOnlyWithHTTP200AndOneRealtimeResponseBodyOption() {
        func named(_ status: Int, _ body: String) -> String { Rules.sendAttemptResult(of: .answered(status: status, body: Array(body.utf8))) }
        #expect(named(200, #"{"message":{"messageIdentifier":"a8d3c5e2-0f1b-4c7a-9e6d-3b2a1c0d9e8f"}}"#) == "SUCCESS")
        #expect(named(200, "{}") == "SUCCESS", "no option: the default message shows")
        #expect(named(200, #"{"message":{},"promotionalOffer":{}}"#) == "INVALID_RESPONSE", "options are mutually exclusive")
        #expect(named(200, "not json") == "INVALID_RESPONSE")
        #expect(named(200, #"{"message":"text"}"#) == "INVALID_RESPONSE")
        #expect(named(201, "{}") == "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
        #expect(named(500, "{}") == "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
        #expect(Rules.sendAttemptResult(of: .failed(sendAttemptResult: "SOCKET_ISSUE")) == "SOCKET_ISSUE")
    }

    @Test func theVerdictTheRateTheTimesAndTheFailures() throws {
        let config = Rules.config
        var calls = (1...45).map { Rules.Call(sendAttemptResult: "SUCCESS", responseMs: Int64($0 * 10)) }
        calls += Array(repeating: Rules.Call(sendAttemptResult: "TIMED_OUT", responseMs: nil), count: 3)
        calls += Array(repeating: Rules.Call(sendAttemptResult: "UNSUCCESSFUL_HTTP_RESPONSE_CODE", responseMs: 5), count: 2)
        let summary = Rules.summary(of: calls, config: config)
        #expect(summary.successRate == 90 && summary.result == "PASS", "90 % reaches the threshold")
        #expect(summary.failures == ["TIMED_OUT": 3, "UNSUCCESSFUL_HTTP_RESPONSE_CODE": 2])
        let times = try #require(summary.responseTimes)
        #expect(times.p50 == 220 && times.p99 == 450, "nearest rank over the 47 answered calls")
        #expect(times.average == (10 * 45 * 46 / 2 + 10 + 23) / 47)

        calls[0] = Rules.Call(sendAttemptResult: "INVALID_RESPONSE", responseMs: 10)
        let failed = Rules.summary(of: calls, config: config)
        #expect(failed.successRate == 88 && failed.result == "FAIL", "44 of 50 is 88 %: below the threshold")

        let abandoned = Rules.summary(of: [], config: config)
        #expect(abandoned.result == "FAIL" && abandoned.failures == ["OTHER": config.totalRequests] && abandoned.responseTimes == nil)
    }
}
