import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import StoreEngine

/// Runs the Retention Messaging performance tests a store starts (Initiate Performance Test):
/// POSTs `RealtimeRequestBody`s to the app's realtime URL, the developer's Get Retention Message
/// endpoint, as the App Store does, `totalRequests` of them with at most `maxConcurrentRequests`
/// in flight, each allowed `responseTimeThreshold` milliseconds, and measures every answer.
///
/// The HTTP side only, as `NotificationDeliveryService` is: the engine gives the runs
/// (`performanceTestRuns()`), signs each request (`realtimeRequestBody(for:)`) and turns the
/// outcomes into the verdict (`finishPerformanceTest`, `Rules/RetentionPerformanceTest`).
public final class RetentionPerformanceTestRunner: Service, Sendable {
    /// The engine that hands out the test runs, signs their requests and judges the outcomes.
    public let store: AppStore
    let logger: Logger

    /// A runner for the performance tests `store` starts; nothing runs until `run()` or `perform(_:)`.
    public init(store: AppStore, logger: Logger = Logger(label: "openstore.retention")) {
        self.store = store
        self.logger = logger
    }

    /// Runs each test as it starts (tests of different apps at the same time) until graceful
    /// shutdown or cancellation (a ServiceLifecycle service, `StoreHTTPServer.services`).
    public func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for await run in self.store.performanceTestRuns() {
                    group.addTask { await self.perform(run) }
                }
            }
        }
    }

    /// One whole test: its calls, then the outcomes handed to the engine.
    public func perform(_ run: PerformanceTestRun) async {
        let config = run.config
        var clientConfig = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(Int64(config.responseTimeThreshold)), read: .milliseconds(Int64(config.responseTimeThreshold))))
        clientConfig.connectionPool = .init(idleTimeout: .seconds(5), concurrentHTTP1ConnectionsPerHostSoftLimit: config.maxConcurrentRequests)
        // A refused connection is an answer (SOCKET_ISSUE), not something to retry until the timeout.
        clientConfig.connectionPool.retryConnectionEstablishment = false
        clientConfig.decompression = .disabled
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfig)
        var calls: [(outcome: RetentionPerformanceTest.CallOutcome, elapsedMs: Int64)] = []
        calls.reserveCapacity(config.totalRequests)
        await withTaskGroup(of: (RetentionPerformanceTest.CallOutcome, Int64).self) { group in
            var started = 0
            func launch() {
                started += 1
                group.addTask { await self.call(run, client: client) }
            }
            while started < config.totalRequests && started < config.maxConcurrentRequests { launch() }
            while let (outcome, elapsed) = await group.next() {
                calls.append((outcome, elapsed))
                store.reportPerformanceTestProgress(run, finishedCalls: calls.count)
                if started < config.totalRequests { launch() }
            }
        }
        try? await client.shutdown()
        do {
            try await store.finishPerformanceTest(run, calls: calls)
        } catch {
            logger.error("performance test \(run.requestId) could not be recorded: \(error)")
        }
    }

    /// One POST to the realtime URL, timed from just before the request to the answer's last byte.
    func call(_ run: PerformanceTestRun, client: HTTPClient) async -> (RetentionPerformanceTest.CallOutcome, Int64) {
        let body: [UInt8]
        do {
            body = try await store.realtimeRequestBody(for: run)
        } catch {
            return (.failed(sendAttemptResult: SendAttemptResult.other.rawValue), 0)
        }
        var request = HTTPClientRequest(url: run.target)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "OpenStoreKit-RetentionMessaging/1.0")
        request.body = .bytes(ByteBuffer(bytes: body))
        let clock = ContinuousClock()
        let start = clock.now
        func elapsedMs() -> Int64 {
            let duration = clock.now - start
            return duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        }
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(run.config.responseTimeThreshold)))
            let answer = try await response.body.collect(upTo: 1 << 16)
            return (.answered(status: Int(response.status.code), body: Array(answer.readableBytesView)), elapsedMs())
        } catch {
            return (.failed(sendAttemptResult: SendAttemptResult(error: error).rawValue), elapsedMs())
        }
    }
}
