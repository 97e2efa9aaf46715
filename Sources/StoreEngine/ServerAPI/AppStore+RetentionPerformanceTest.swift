import Foundation
import StoreModel
import StoreStorage

/// Apple's `PerformanceTestResponse`: the test's parameters and the ID to ask for its results.
public struct PerformanceTestResponse: Codable, Sendable, Equatable {
    /// The parameters the test runs with (the same for every test here).
    public var config: PerformanceTestConfig
    /// The test's ID, for Get Performance Test Results.
    public var requestId: String
}

/// Apple's `PerformanceTestResultResponse`. While the test runs, `result` is PENDING with the
/// calls still to finish in `numPending`; the figures come when it is over.
public struct PerformanceTestResultResponse: Codable, Sendable, Equatable {
    /// The parameters the test ran with.
    public var config: PerformanceTestConfig
    /// The realtime URL the test called.
    public var target: String
    /// `PENDING` while calls remain, then `PASS` or `FAIL`.
    public var result: String
    /// The whole percentage of calls that succeeded; nil while pending.
    public var successRate: Int?
    /// Calls not yet finished; 0 once the test is over.
    public var numPending: Int
    /// Response-time figures of the answered calls; nil while pending or when no call was answered.
    public var responseTimes: PerformanceTestResponseTimes?
    /// Failed calls by `SendAttemptResult`; nil while pending.
    public var failures: [String: Int]?
}

/// A started test, as the runner needs it: where to call, how, and what each call carries.
public struct PerformanceTestRun: Sendable, Equatable {
    /// The test's ID.
    public var requestId: String
    /// The world the test was started in; its clock dates the signed requests.
    public var world: String
    /// The app whose realtime URL is tested.
    public var bundleId: String
    /// The app's realtime URL (its Get Retention Message endpoint).
    public var target: String
    /// How many calls to make, how many at once, and how long each may take.
    public var config: PerformanceTestConfig
    var originalTransactionId: String
    var productId: String
    var userLocale: String
}

/// Initiate Performance Test and Get Performance Test Results (Retention Messaging API 1.3.0).
/// The engine checks the request, keeps the run and its verdict (`RetentionPerformanceTest`);
/// StoreNotifications' runner makes the calls through `performanceTestRuns()`,
/// `realtimeRequestBody(for:)` and `finishPerformanceTest(_:calls:)`, as notification delivery does.
extension AppStore {
    static let performanceTestKind = "retention_performance_test"

    /// What is kept of a test: the run, when it started (real time), and its summary once over.
    struct StoredPerformanceTest: Codable, Sendable {
        var requestId: String
        var target: String
        var config: PerformanceTestConfig
        var startedMs: Int64
        var summary: PerformanceTestSummary?
    }

    /// Starts a test of the app's realtime URL with one of the customer's active auto-renewable
    /// subscriptions (Apple: "The transaction is for an active auto-renewable subscription. The
    /// transaction occurs in the sandbox environment."). Errors: a production app or an
    /// unsuitable transaction 4000211, no realtime URL 4040021, a test of the app still running
    /// 4000213, a malformed ID 4000008, an unknown one 4040010.
    public func initiatePerformanceTest(body: Data, caller: ServerAPICaller) async throws -> PerformanceTestResponse {
        let app = try serverAPIApp(caller)
        guard let fields = JSONValue.object(from: body) else { throw ServerAPIError.invalidPerformanceTestRequest }
        if let unknown = fields.keys.sorted().first(where: { $0 != "originalTransactionId" }) { throw ServerAPIError.unknownParameter(unknown) }
        guard case .string(let id)? = fields["originalTransactionId"] else { throw ServerAPIError.invalidOriginalTransactionId }
        _ = try TransactionNumber.parse(id, error: .invalidOriginalTransactionId)
        guard app.environment == .sandbox else { throw ServerAPIError.invalidPerformanceTestRequest }
        let found = try await serverAPITransaction(id, caller: caller)
        guard found.record.originalId == found.record.id else { throw ServerAPIError.transactionIdIsNotOriginalTransactionId }
        let statuses = try await subscriptionStatuses(bundleId: app.bundleId, customer: found.record.customer, world: caller.world)
        guard let status = statuses.first(where: { $0.originalTransactionId == id }),
              status.status == .active || status.status == .billingGracePeriod
        else { throw ServerAPIError.invalidPerformanceTestRequest }
        let target = try await realtimeURL(caller: caller).realtimeURL
        let nowMs = clock.now().milliseconds
        for test in try await records(caller, kind: Self.performanceTestKind, as: StoredPerformanceTest.self)
        where test.summary == nil && !isAbandoned(test, nowMs: nowMs) {
            throw ServerAPIError.existingPerformanceTestRun
        }
        let payload = try TransactionPayload(json: Array(found.record.payload.utf8))
        let locale = (Storefront.lookup(payload.storefront)?.locale ?? "en_US").replacingOccurrences(of: "_", with: "-")
        let config = RetentionPerformanceTest.config
        let requestId = worlds.env.identifiers.uuid()
        try await saveRecord(caller, kind: Self.performanceTestKind, key: try retentionKey(caller, requestId),
                             StoredPerformanceTest(requestId: requestId, target: target, config: config, startedMs: nowMs, summary: nil))
        performanceTests.submit(PerformanceTestRun(
            requestId: requestId, world: caller.world, bundleId: app.bundleId, target: target, config: config,
            originalTransactionId: id, productId: found.record.productId, userLocale: locale))
        return PerformanceTestResponse(config: config, requestId: requestId)
    }

    /// The test's verdict and figures, or PENDING with the calls left while it runs. A test the
    /// store stopped running (a restart) is FAIL once its time is well over, its unmade calls
    /// counted as OTHER.
    public func performanceTestResult(requestId: String, caller: ServerAPICaller) async throws -> PerformanceTestResultResponse {
        _ = try serverAPIApp(caller)
        guard let uuid = UUID(uuidString: requestId) else { throw ServerAPIError.invalidRequestId }
        let key = try retentionKey(caller, uuid.uuidString.lowercased())
        guard let stored = try await database.worldRecord(world: caller.world, kind: Self.performanceTestKind, key: key),
              let test = try? JSONDecoder().decode(StoredPerformanceTest.self, from: Data(stored.value.utf8))
        else { throw ServerAPIError.performanceTestRunNotFound }
        var summary = test.summary
        if summary == nil, isAbandoned(test, nowMs: clock.now().milliseconds) {
            summary = RetentionPerformanceTest.summary(of: [], config: test.config)
        }
        guard let summary else {
            let finished = performanceTests.finishedCalls(test.requestId) ?? 0
            return PerformanceTestResultResponse(
                config: test.config, target: test.target, result: "PENDING", successRate: nil,
                numPending: max(0, test.config.totalRequests - finished), responseTimes: nil, failures: nil)
        }
        return PerformanceTestResultResponse(
            config: test.config, target: test.target, result: summary.result, successRate: summary.successRate,
            numPending: 0, responseTimes: summary.responseTimes, failures: summary.failures)
    }

    func isAbandoned(_ test: StoredPerformanceTest, nowMs: Int64) -> Bool {
        performanceTests.finishedCalls(test.requestId) == nil
            && nowMs > test.startedMs + test.config.totalDuration + RetentionPerformanceTest.abandonedAfterMs
    }

    // MARK: The runner's side

    /// The tests this store starts, for its one runner (a second caller gets an empty stream).
    public func performanceTestRuns() -> AsyncStream<PerformanceTestRun> {
        performanceTests.runs()
    }

    /// `{"signedPayload": …}`: a `RealtimeRequestBody` whose payload is a
    /// `DecodedRealtimeRequestBody` signed by the store's chain, as the App Store signs it, with
    /// its own `requestIdentifier` and the world's `signedDate`.
    public func realtimeRequestBody(for run: PerformanceTestRun) async throws -> [UInt8] {
        let app = try app(run.bundleId)
        var json = JSONWriter(capacity: 320)
        json.beginObject()
        json.field("originalTransactionId", run.originalTransactionId)
        json.field("appAppleId", app.appAppleId)
        json.field("productId", run.productId)
        json.field("userLocale", run.userLocale)
        json.field("requestIdentifier", worlds.env.identifiers.uuid())
        json.field("signedDate", try await nowMs(run.world))
        json.field("environment", app.environment.rawValue)
        json.endObject()
        return NotificationPayload.requestBody(signedPayload: signer.sign(payloadJSON: json.bytes))
    }

    /// How many calls have finished, for `numPending` while the test runs.
    public func reportPerformanceTestProgress(_ run: PerformanceTestRun, finishedCalls: Int) {
        performanceTests.progress(run.requestId, finishedCalls: finishedCalls)
    }

    /// The calls' outcomes, in any order: the engine names each (`RetentionPerformanceTest`),
    /// works out the figures and the verdict, and keeps them.
    public func finishPerformanceTest(_ run: PerformanceTestRun, calls: [(outcome: RetentionPerformanceTest.CallOutcome, elapsedMs: Int64)]) async throws {
        defer { performanceTests.finished(run.requestId) }
        let named = calls.map { call -> RetentionPerformanceTest.Call in
            let result = RetentionPerformanceTest.sendAttemptResult(of: call.outcome)
            if case .answered = call.outcome {
                // An answer whose body came after the threshold was too late all the same.
                let late = call.elapsedMs > Int64(run.config.responseTimeThreshold)
                return .init(sendAttemptResult: late ? "TIMED_OUT" : result, responseMs: call.elapsedMs)
            }
            return .init(sendAttemptResult: result, responseMs: nil)
        }
        let caller = ServerAPICaller(keyId: "", issuerId: "", bundleId: run.bundleId, world: run.world)
        let key = try retentionKey(caller, run.requestId)
        guard let stored = try await database.worldRecord(world: run.world, kind: Self.performanceTestKind, key: key),
              var test = try? JSONDecoder().decode(StoredPerformanceTest.self, from: Data(stored.value.utf8))
        else { return }
        test.summary = RetentionPerformanceTest.summary(of: named, config: run.config)
        try await saveRecord(caller, kind: Self.performanceTestKind, key: key, test)
    }
}

extension ServerAPIError {
    static let invalidPerformanceTestRequest = ServerAPIError(code: 4_000_211, message: "Invalid request. The performance test request is invalid.")
    static let invalidRequestId = ServerAPIError(code: 4_000_212, message: "Invalid request. The request ID is invalid.")
    static let existingPerformanceTestRun = ServerAPIError(code: 4_000_213, message: "A performance test of this app is already running.")
    static let performanceTestRunNotFound = ServerAPIError(code: 4_040_018, message: "Performance test run not found.")
}
