import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import StoreShared
import NIOCore
import Synchronization

/// Delivers events from the durable outbox to the configured URLs. A delivery is done when the
/// URL answers 2xx; otherwise it is retried with exponential backoff (base × 2^(attempt−1),
/// capped), up to the configured number of attempts. Every attempt lands in the delivery log.
///
/// Instances sharing a database lease the deliveries they make (`webhookLeaseSeconds`): a round
/// takes its rows out of the others' reach in one write, starts each delivery only while the
/// lease outlasts the delivery's timeout and a margin, records an attempt only while the lease
/// still holds, and hands back what it did not start. A delivery is made by one instance at a
/// time, tried again by another when its instance dies, and never made again after a success.
public final class WebhookDispatcher: Sendable {
    let backend: SubscriptionBackend
    let http: HTTPClient
    private let wake: WakeSignal
    private let stopping = Mutex(false)

    /// How long a delivery waits for the URL's answer.
    static let deliveryTimeoutSeconds: Double = 10
    /// Lease left beyond the timeout for a delivery to start: covers recording it and clock skew.
    static let leaseMarginSeconds: Double = 5

    /// `wake`: the signal the backend pokes when it records events, made before the dispatcher.
    public init(backend: SubscriptionBackend, http: HTTPClient, wake: WakeSignal = WakeSignal()) {
        self.backend = backend
        self.http = http
        self.wake = wake
    }

    /// Starts a delivery round now instead of at the next poll.
    public func poke() { wake.signal() }

    /// Ends `run` after the delivery in flight (graceful shutdown): deliveries not started go back
    /// to the outbox for another instance, or for the next start.
    public func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    /// Runs until `stop()` or cancellation: a round, then sleep until a poke (an event was
    /// recorded) or the next retry is due. An idle backend does not poll (issue #27).
    public func run() async {
        while !Task.isCancelled && !isStopping {
            var full = false
            do {
                full = try await round() == Self.roundSize
            } catch {
                backend.logger.warning("webhook round failed", metadata: ["error": "\(error)"])
            }
            if full { continue }  // more are due: the next round at once
            await wake.wait(timeout: await untilNextAttempt())
        }
    }

    /// Rows taken per round.
    static let roundSize = 64
    /// The longest sleep without a poke: a safety net for what no poke reports.
    static let longestSleepMs: Int64 = 5_000

    /// Until the next pending attempt is due, at most `longestSleepMs`. A row still due after a
    /// round that was not full goes to a URL no longer configured: it waits the longest.
    private func untilNextAttempt() async -> Duration {
        guard let due = try? await backend.database.nextOutboxAttemptMs() else { return .milliseconds(Self.longestSleepMs) }
        let wait = due - backend.nowMs()
        return .milliseconds(wait <= 0 ? Self.longestSleepMs : min(wait, Self.longestSleepMs))
    }

    /// Leases the due outbox rows (at most `roundSize`, soonest due first) and delivers each once;
    /// returns how many rows were due. Rows it cannot start in time, or at all while stopping,
    /// are handed back.
    @discardableResult
    public func round() async throws -> Int {
        let now = backend.nowMs()
        let leaseUntil = now + Int64(backend.configuration.webhookLeaseSeconds * 1000)
        let due = try await backend.database.write { store in
            try await store.leaseDueOutbox(nowMs: now, limit: Self.roundSize, untilMs: leaseUntil)
        }
        let latestStart = leaseUntil - Int64((Self.deliveryTimeoutSeconds + Self.leaseMarginSeconds) * 1000)
        var next = 0
        while next < due.count, !isStopping, backend.nowMs() <= latestStart {
            let row = due[next]
            next += 1
            // A URL no longer configured, or an event gone: the row waits out the lease.
            guard let target = backend.configuration.webhooks.first(where: { $0.url == row.url }) else { continue }
            guard let body = try await backend.database.eventBody(id: row.eventId) else { continue }
            try await deliver(row, body: body, target: target, leaseUntil: leaseUntil)
        }
        if next < due.count {
            let unstarted = Array(due[next...])
            try await backend.database.write { store in try await store.releaseLease(unstarted, untilMs: leaseUntil) }
        }
        return due.count
    }

    /// The bytes sent for an event: its JSON, or Slack's `{"text": …}` for a Slack URL.
    static func wireBody(eventJSON: String, format: String) -> String {
        guard format == "slack",
              let payload = try? JSONDecoder().decode(WebhookPayload.self, from: Data(eventJSON.utf8)) else { return eventJSON }
        let data = (try? JSONEncoder().encode(["text": payload.slackText()])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: the timestamp is signed
    /// with the body so a captured request cannot be replayed later under a new time.
    public static func signature(body: String, secret: String, timestamp: Int64) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: key)
        return "t=\(timestamp),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    private func deliver(_ row: OutboxRow, body eventJSON: String, target: WebhookTarget, leaseUntil: Int64) async throws {
        let body = Self.wireBody(eventJSON: eventJSON, format: target.format)
        let timestamp = backend.nowMs() / 1000
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "openstorekit-subscription-backend")
        request.headers.add(name: "OpenStore-Event-Id", value: row.eventId)
        request.headers.add(name: "OpenStore-Signature", value: Self.signature(body: body, secret: target.secret, timestamp: timestamp))
        if let authorization = target.authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.body = .bytes(ByteBuffer(string: body))
        var status: Int?
        var failure: String?
        do {
            let response = try await http.execute(request, timeout: .milliseconds(Int64(Self.deliveryTimeoutSeconds * 1000)))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            status = Int(response.status.code)
            if !(200..<300).contains(Int(response.status.code)) { failure = "HTTP \(response.status.code)" }
        } catch {
            failure = "\(error)"
        }
        let attempt = row.attempts + 1
        let config = backend.configuration
        let now = backend.nowMs()
        let ok = failure == nil
        let delay = min(config.webhookRetryBaseSeconds * pow(2, Double(attempt - 1)), config.webhookRetryMaxSeconds)
        let state = ok ? "delivered" : (attempt >= config.webhookMaxAttempts ? "failed" : "pending")
        let delivery = DeliveryRow(eventId: row.eventId, url: row.url, attempt: attempt, atMs: now, httpStatus: status, error: failure, ok: ok)
        let updated = OutboxRow(
            eventId: row.eventId, url: row.url, attempts: attempt, nextAttemptMs: ok ? now : now + Int64(delay * 1000),
            state: state, lastStatus: status, lastError: failure)
        let recorded = try await backend.database.write { store -> Bool in
            // Recorded only under this round's lease: an instance that paused past it and finds the
            // delivery taken by another leaves the attempt to that one's record.
            guard try await store.holdsLease(row, untilMs: leaseUntil) else { return false }
            try await store.record(updated, delivery)
            return true
        }
        if !recorded {
            backend.logger.warning("webhook attempt not recorded: its lease ran out", metadata: ["event": "\(row.eventId)", "url": "\(row.url)"])
        }
    }

    /// The delivery log, newest first.
    public func log(eventId: String?, limit: Int) async throws -> [DeliveryLogEntry] {
        try await backend.database.deliveries(eventId: eventId, limit: max(1, min(limit, 1000)))
            .map { DeliveryLogEntry(eventId: $0.eventId, url: $0.url, attempt: $0.attempt, at: $0.atMs, httpStatus: $0.httpStatus, error: $0.error, ok: $0.ok) }
    }

    /// Outbox rows by state, for the log's summary.
    public func outboxCounts() async throws -> [String: Int] {
        try await backend.database.outboxStates().reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}

/// One attempt to deliver one event to one URL.
public struct DeliveryLogEntry: Codable, Sendable, Equatable {
    /// The event delivered: its `WebhookPayload.id`, also sent as `OpenStore-Event-Id`.
    public var eventId: String
    /// The webhook URL it was sent to.
    public var url: String
    /// 1 for the first try, counting up to `webhookMaxAttempts`.
    public var attempt: Int
    /// When the attempt was made, by the backend's clock (ms).
    public var at: Int64
    /// The status the URL answered; nil when no answer came.
    public var httpStatus: Int?
    /// Why the attempt failed (`HTTP 500`, or the network error); nil on success.
    public var error: String?
    /// True when the URL answered 2xx: the delivery is done.
    public var ok: Bool
}
