import Foundation
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing
@testable import StoreEngine

/// The Retention Messaging performance test's rules (`Rules/RetentionPerformanceTest.swift`).
/// Apple (Initiate Performance Test): "To pass the performance test, your server must respond to
/// requests within approximately 700 ms in the sandbox environment." `RealtimeResponseBody`'s
/// options are mutually exclusive (Apple's `message` page: "you can choose from mutually
/// exclusive options"). The HTTP side is checked end to end in compat/test_retention_messaging.py.
@Suite(.removesTemporaryFolders) struct RetentionPerformanceTestTests {
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

    func caller(_ store: AppStore) async throws -> ServerAPICaller {
        let key = try await store.createAPIKey(bundleId: testBundle, world: AppStore.defaultWorld)
        let token = try APITokenSigner(generated: key).token(now: store.clock.now(), options: .swift)
        return try await ServerAPIGateway(store: store).authenticate(token: token)
    }

    func code(_ body: () async throws -> Void) async -> Int64? {
        do { try await body(); return nil } catch let error as ServerAPIError { return error.code } catch { return -1 }
    }

    func request(_ id: String) -> Data { Data(#"{"originalTransactionId":"\#(id)"}"#.utf8) }

    /// PerformanceTestRequest: "The transaction is for an active auto-renewable subscription. The
    /// transaction occurs in the sandbox environment." One test of an app runs at a time; its
    /// runner gets it from the store's queue; a test a restart cut off is FAIL once its time is over.
    @Test func initiateChecksTheRequestQueuesTheRunAndARestartedStoreFailsIt() async throws {
        let clock = TestClock()
        let path = databasePath()
        var store = try await makeStore(path: path, clock: clock)
        let me = try await caller(store)
        let yearly = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "ana")).transaction).payload
        let seeds = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "ana")).transaction).payload

        #expect(await code { _ = try await store.initiatePerformanceTest(body: request(yearly.originalTransactionId), caller: me) } == 4_040_021)
        try await store.configureRealtimeURL(body: Data(#"{"realtimeURL":"http://127.0.0.1:9/retention"}"#.utf8), caller: me)
        #expect(await code { _ = try await store.initiatePerformanceTest(body: request(seeds.transactionId), caller: me) } == 4_000_211)
        #expect(await code { _ = try await store.initiatePerformanceTest(body: Data(#"{"originalTransactionId":"1","x":1}"#.utf8), caller: me) } == 4_000_000)

        let started = try await store.initiatePerformanceTest(body: request(yearly.originalTransactionId), caller: me)
        #expect(started.config == Rules.config)
        var runs = store.performanceTestRuns().makeAsyncIterator()
        let run = try #require(await runs.next())
        #expect(run.requestId == started.requestId && run.target == "http://127.0.0.1:9/retention")
        #expect(await code { _ = try await store.initiatePerformanceTest(body: request(yearly.originalTransactionId), caller: me) } == 4_000_213)
        store.reportPerformanceTestProgress(run, finishedCalls: 20)
        let pending = try await store.performanceTestResult(requestId: started.requestId, caller: me)
        #expect(pending.result == "PENDING" && pending.numPending == Rules.config.totalRequests - 20 && pending.successRate == nil)

        // The signed request is a DecodedRealtimeRequestBody.
        let body = try await store.realtimeRequestBody(for: run)
        let signed = try #require(JSONValue.object(from: Data(body))?["signedPayload"])
        guard case .string(let jws) = signed, let payload = Base64URL.decode(jws.split(separator: ".")[1]),
              let fields = JSONValue.object(from: Data(payload)) else { Issue.record("no signedPayload"); return }
        #expect(fields["originalTransactionId"] == .string(yearly.originalTransactionId) && fields["productId"] == .string("test.yearly"))
        #expect(fields["environment"] == .string("Sandbox") && fields["userLocale"] == .string("en-US") && fields["appAppleId"] == .integer(1_234_567_890))

        // The store stops before the test ends: after a restart it is FAIL once its time is over.
        await store.close()
        store = try await makeStore(path: path, clock: clock)
        #expect(try await store.performanceTestResult(requestId: started.requestId, caller: me).result == "PENDING")
        clock.advance(Double(Rules.config.totalDuration + Rules.abandonedAfterMs) / 1000 + 1)
        let abandoned = try await store.performanceTestResult(requestId: started.requestId, caller: me)
        #expect(abandoned.result == "FAIL" && abandoned.numPending == 0 && abandoned.failures == ["OTHER": Rules.config.totalRequests])
        #expect(await code { _ = try await store.performanceTestResult(requestId: UUID().uuidString, caller: me) } == 4_040_018)
        #expect(await code { _ = try await store.performanceTestResult(requestId: "nope", caller: me) } == 4_000_212)
        await store.close()
    }

    @Test func aProductionAppCannotRunTheTest() async throws {
        let store = try await makeStore(apps: [try makeApp(environment: .production)])
        let me = try await caller(store)
        let yearly = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "ana")).transaction).payload
        try await store.configureRealtimeURL(body: Data(#"{"realtimeURL":"https://example.com/retention"}"#.utf8), caller: me)
        #expect(await code { _ = try await store.initiatePerformanceTest(body: request(yearly.originalTransactionId), caller: me) } == 4_000_211)
        await store.close()
    }
}
