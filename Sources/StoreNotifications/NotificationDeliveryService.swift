import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import StoreEngine
import StoreStorage
import Synchronization

/// Delivers App Store Server Notifications from the durable outbox, at least once.
///
/// Each pass takes, per world, the notifications whose next attempt is due on that world's clock,
/// signs each (content fixed at emission, so every attempt carries the same `notificationUUID`),
/// POSTs `{"signedPayload": …}` to the app's URL for its environment, and writes every outcome
/// back in one batch. An attempt is dated at its due time on the world clock, the way renewals
/// are: when the clock jumps a week, the overdue retries run back to back, each dated where
/// Apple's schedule puts it. A notification left undelivered by a crash is still due after a
/// restart, so nothing acknowledged is lost (it may be sent twice, as at Apple).
public final class NotificationDeliveryService: Sendable {
    public let store: AppStore
    public let configuration: NotificationDeliveryConfiguration
    /// Replaced after a pass with connection failures when owned: AsyncHTTPClient backs off
    /// from a host whose connections failed, which would fail the next attempts (due at once
    /// when the world clock jumps) with the old error instead of trying the receiver again.
    private let clientBox: Mutex<HTTPClient>
    private let ownsClient: Bool
    var client: HTTPClient { clientBox.withLock { $0 } }
    let logger: Logger

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

    static func makeClient(_ configuration: NotificationDeliveryConfiguration) -> HTTPClient {
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

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

    /// Runs until the task is cancelled, then shuts its HTTP client down.
    public func run() async {
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
                try? await Task.sleep(nanoseconds: UInt64(configuration.pollIntervalSeconds * 1e9))
            }
        }
        await shutdown()
    }

    public func shutdown() async {
        if ownsClient { try? await client.shutdown() }
    }

    /// One pass: every notification due now in every world gets one attempt. Returns the number
    /// of attempts made. Tests call it directly to run delivery deterministically.
    @discardableResult
    public func deliverDue() async throws -> Int {
        var total = 0
        for world in await store.listWorlds() {
            let due = try await store.database.dueNotifications(world: world.id, untilMs: world.nowMs, limit: configuration.batchSize)
            guard !due.isEmpty else { continue }
            total += try await deliver(due)
        }
        return total
    }

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

    private func deliver(_ records: [NotificationRecord]) async throws -> Int {
        var urls: [String: String?] = [:]
        for record in records where urls[record.bundleId + "\n" + record.environment] == nil {
            urls[record.bundleId + "\n" + record.environment] = .some(try await store.notificationURL(
                bundleId: record.bundleId, environment: record.environment, world: record.world))
        }
        let limit = configuration.concurrency
        var updates: [NotificationAttemptUpdate] = []
        updates.reserveCapacity(records.count)
        var sawConnectionFailure = false
        try await withThrowingTaskGroup(of: (NotificationAttemptUpdate, SendAttemptResult).self) { group in
            var next = 0
            func launch() {
                let record = records[next]
                next += 1
                let url = urls[record.bundleId + "\n" + record.environment] ?? nil
                group.addTask { await self.attempt(record, url: url) }
            }
            while next < records.count && next < limit { launch() }
            while let (update, result) = try await group.next() {
                updates.append(update)
                if result != .success && result != .unsuccessfulHTTPResponseCode { sawConnectionFailure = true }
                if next < records.count { launch() }
                if updates.count >= 1000 {
                    try await write(updates)
                    updates.removeAll(keepingCapacity: true)
                }
            }
        }
        try await write(updates)
        if sawConnectionFailure { await renewClient() }
        return records.count
    }

    private func write(_ updates: [NotificationAttemptUpdate]) async throws {
        guard !updates.isEmpty else { return }
        var batch = WriteBatch()
        batch.notifications = updates.map { .attempt($0) }
        try await store.database.write(batch)
    }

    /// One attempt at one notification and the row's next state.
    func attempt(_ record: NotificationRecord, url: String?) async -> (NotificationAttemptUpdate, SendAttemptResult) {
        let dateMs = record.nextAttemptMs ?? record.signedMs
        let result: SendAttemptResult
        if let url {
            result = await post(NotificationPayload.requestBody(signedPayload: store.signedPayload(of: record)), to: url)
        } else {
            // The URL was removed after the notification was emitted: nobody to send it to.
            result = .other
        }
        let count = record.attemptCount + 1
        let delivered = result == .success
        return (NotificationAttemptUpdate(
            seq: record.seq, attemptCount: count, delivered: delivered,
            nextAttemptMs: delivered ? nil : NotificationRetryPolicy.nextAttemptMs(afterFailedAttempt: count, at: dateMs, environment: record.environment),
            attempts: NotificationPayload.appendingAttempt(record.attempts, dateMs: dateMs, result: result.rawValue)), result)
    }

    /// POSTs the body with `Content-Type: application/json`; the answer's status decides.
    func post(_ body: [UInt8], to url: String) async -> SendAttemptResult {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "OpenStoreKit-Notifications/2.0")
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: Self.amount(configuration.timeoutSeconds))
            // Read (and drop) the answer, so the connection can be reused.
            _ = try await response.body.collect(upTo: 1 << 20)
            return SendAttemptResult(status: Int(response.status.code))
        } catch {
            return SendAttemptResult(error: error)
        }
    }
}
