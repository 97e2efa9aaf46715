import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import StoreEngine
import Synchronization

/// Delivers App Store Server Notifications from the durable outbox, at least once.
///
/// Each pass asks the engine, per world, for the notifications whose next attempt is due on that
/// world's clock (`AppStore.dueNotifications`), has each signed (content fixed at emission, so
/// every attempt carries the same `notificationUUID`), POSTs `{"signedPayload": …}` to the app's
/// URL for its environment, and reports the outcomes back through the engine in one batch
/// (`AppStore.recordDeliveryOutcomes`, which applies Apple's retry schedule). An attempt is dated at its due time on the world clock, the way renewals
/// are: when the clock jumps a week, the overdue retries run back to back, each dated where
/// Apple's schedule puts it. A notification left undelivered by a crash is still due after a
/// restart, so nothing acknowledged is lost (it may be sent twice, as at Apple).
public final class NotificationDeliveryService: Service, Sendable {
    /// The engine whose outbox is delivered and which records each attempt's outcome.
    public let store: AppStore
    /// Timeout, concurrency, polling and batch sizes, fixed for the service's life.
    public let configuration: NotificationDeliveryConfiguration
    /// Replaced after a pass with connection failures when owned: AsyncHTTPClient backs off
    /// from a host whose connections failed, which would fail the next attempts (due at once
    /// when the world clock jumps) with the old error instead of trying the receiver again.
    private let clientBox: Mutex<HTTPClient>
    private let ownsClient: Bool
    var client: HTTPClient { clientBox.withLock { $0 } }
    let logger: Logger

    /// Pass `client` to send with a client the caller owns and shuts down; without one the service
    /// makes its own (`makeClient`), which `shutdown()` closes.
    public init(store: AppStore, configuration: NotificationDeliveryConfiguration = .init(), client: HTTPClient? = nil,
                logger: Logger = Logger(label: "openstore.notifications")) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        if let client {
            clientBox = Mutex(client)
            ownsClient = false
        } else {
            clientBox = Mutex(Self.makeClient(configuration))
            ownsClient = true
        }
    }

    /// The HTTP client an owned service sends with (the benchmark's bare POSTs use the same).
    public static func makeClient(_ configuration: NotificationDeliveryConfiguration) -> HTTPClient {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false),
            timeout: .init(connect: amount(configuration.timeoutSeconds), read: amount(configuration.timeoutSeconds)))
        config.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.concurrency)
        // A refused connection is an answer: record it at once as SOCKET_ISSUE. With the pool's
        // default retries, AsyncHTTPClient keeps reconnecting until the connect timeout ends, so a
        // receiver that is down looked like a slow one (and held a delivery slot for the timeout).
        config.connectionPool.retryConnectionEstablishment = false
        config.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    private func renewClient() async {
        guard ownsClient else { return }
        let fresh = Self.makeClient(configuration)
        let old = clientBox.withLock { box -> HTTPClient in defer { box = fresh }; return box }
        try? await old.shutdown()
    }

    /// The headers of every attempt, built once.
    static let headers: HTTPHeaders = ["Content-Type": "application/json", "User-Agent": "OpenStoreKit-Notifications/2.0"]

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

    /// A ServiceLifecycle service (`StoreHTTPServer.services`): delivers until graceful shutdown
    /// or cancellation; the pass in flight records its outcomes first, then the HTTP client shuts
    /// down. In `openstore serve` it stops after the HTTP server, before the leases go back.
    public func run() async {
        await cancelWhenGracefulShutdown { await self.deliverUntilCancelled() }
    }

    /// Delivers until the task is cancelled, then shuts its HTTP client down.
    func deliverUntilCancelled() async {
        while !Task.isCancelled {
            let sent: Int
            do {
                sent = try await deliverDue()
            } catch {
                if Task.isCancelled { break }
                logger.error("notification delivery pass failed: \(error)")
                sent = 0
            }
            if sent == 0 {
                await store.waitForDueNotifications(atMost: .milliseconds(Int64(configuration.pollIntervalSeconds * 1000)))
            }
        }
        await shutdown()
    }

    /// Shuts down the HTTP client the service made itself; a client passed to `init` is left to its owner.
    public func shutdown() async {
        if ownsClient { try? await client.shutdown() }
    }

    /// One pass: every notification due now in every world gets one attempt (at most
    /// `batchSize` per world, so one world's backlog does not hold the others up for long).
    /// Returns the number of attempts made, once their outcomes are durable. Tests call it
    /// directly to run delivery deterministically.
    ///
    /// A pass is a pipeline that keeps `concurrency` POSTs on the wire from its first
    /// notification to its last, as a bare POST loop would: this task reads the outbox a page
    /// ahead (`DuePages`: the next page after the last one's position, so nothing in flight is
    /// handed out twice), one signer per core signs bodies a little ahead of the senders, and
    /// `concurrency` senders POST them; outcomes are written in chunks while sending goes on
    /// (`DeliveryOutcomeWriter`). Signing inside the attempt left fewer requests on the wire than
    /// attempts in flight, and waiting for reads and writes with nothing in flight idled the
    /// receiver.
    @discardableResult
    public func deliverDue() async throws -> Int {
        let limit = configuration.concurrency
        // One signer per core (signing is most of a delivery's CPU); one keeps the due order when
        // one request at a time is sent.
        let signers = min(limit, max(1, ProcessInfo.processInfo.activeProcessorCount))
        let due = DeliveryQueue<DueNotification>(capacity: configuration.pageSize)
        let ready = DeliveryQueue<ReadyAttempt>(capacity: limit)
        let outcomes = DeliveryOutcomeWriter(store: store, chunk: Self.outcomeChunk)
        var readFailure: (any Error)?
        await withTaskGroup(of: Void.self) { group in
            var taken = 0, senders = 0
            var signing = false
            worlds: for world in await store.servedWorldIds() {
                var pages = DuePages(store: store, world: world, pageSize: min(configuration.batchSize, configuration.pageSize), cap: configuration.batchSize)
                while true {
                    let page: [DueNotification]
                    do {
                        guard let next = try await pages.next() else { break }
                        page = next
                    } catch is WorldElsewhere {
                        continue worlds  // given up to another instance since listed: that one delivers them now
                    } catch StoreError.worldNotFound {
                        continue worlds  // deleted since listed (a test's world): nothing of it is left to deliver
                    } catch {
                        readFailure = error
                        break worlds
                    }
                    // Stages start with the first notification due (an idle poll starts nothing),
                    // and no more senders than notifications taken.
                    taken += page.count
                    if !signing {
                        signing = true
                        let signers = min(signers, taken)
                        group.addTask { await self.sign(from: due, into: ready, signers: signers) }
                    }
                    while senders < min(limit, taken) {
                        senders += 1
                        group.addTask {
                            while let next = await ready.next() {
                                let (outcome, result) = await self.attempt(next)
                                await outcomes.add(outcome, connectionFailed: result != .success && result != .unsuccessfulHTTPResponseCode)
                            }
                        }
                    }
                    for notification in page {
                        // Cancelled (shutdown): what is in flight finishes and is recorded; nothing new starts.
                        guard await due.push(notification) else { break worlds }
                    }
                }
            }
            due.finish()
        }
        try await outcomes.finish()
        if outcomes.sawConnectionFailure { await renewClient() }
        if let readFailure { throw readFailure }
        return outcomes.count
    }

    /// A due notification with its request body, signed ahead of its POST (nil: no URL any more).
    struct ReadyAttempt: Sendable {
        var notification: DueNotification
        var body: [UInt8]?
    }

    /// The signing stage: `signers` tasks sign bodies in due order as senders free up; the
    /// signature is made for this attempt, just before it is sent, as before.
    private func sign(from due: DeliveryQueue<DueNotification>, into ready: DeliveryQueue<ReadyAttempt>, signers: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<signers {
                group.addTask {
                    while let notification = await due.next() {
                        let body = notification.url == nil ? nil : self.store.requestBody(of: notification)
                        guard await ready.push(ReadyAttempt(notification: notification, body: body)) else { return }
                    }
                }
            }
        }
        ready.finish()
    }

    /// Outcomes written back in one batch.
    static let outcomeChunk = 1000

    /// Delivers until nothing is due (a clock that jumped runs its whole retry schedule).
    @discardableResult
    public func drain(maxPasses: Int = 1000) async throws -> Int {
        var total = 0
        for _ in 0..<maxPasses {
            let sent = try await deliverDue()
            total += sent
            if sent == 0 { break }
        }
        return total
    }

    /// One attempt at one notification, its body signed.
    func attempt(_ ready: ReadyAttempt) async -> (NotificationDeliveryOutcome, SendAttemptResult) {
        let notification = ready.notification
        let result: SendAttemptResult
        var failure: String?
        if let url = notification.url, let body = ready.body {
            (result, failure) = await post(body, to: url)
        } else {
            // The URL was removed after the notification was emitted: nobody to send it to.
            result = .other
        }
        if result != .success { logFailedAttempt(notification, result: result, error: failure) }
        return (NotificationDeliveryOutcome(notification: notification, sendAttemptResult: result.rawValue), result)
    }

    /// POSTs the body with `Content-Type: application/json`; the answer's status decides. A
    /// failure comes with the client's own error text, for the log.
    func post(_ body: [UInt8], to url: String) async -> (SendAttemptResult, String?) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers = Self.headers
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: Self.amount(configuration.timeoutSeconds))
            // Read (and drop) the answer, so the connection can be reused.
            _ = try await response.body.collect(upTo: 1 << 20)
            return (SendAttemptResult(status: Int(response.status.code)), nil)
        } catch {
            return (SendAttemptResult(error: error), String(describing: error))
        }
    }
}
