import AsyncHTTPClient
import Foundation
import Logging
import StoreShared
import Synchronization

/// Answers the App Store's refund requests (CONSUMPTION_REQUEST) by each app's refund control:
/// Send Consumption Information with the policy's body (`RefundControlRules`), tried again with
/// backoff on a network failure, a 5xx or a 429 until Apple's 12 hours are over, and never for a
/// customer whose consent is not recorded. An accepted answer makes a CONSUMPTION_REQUEST_ANSWERED
/// event.
///
/// Instances sharing a database lease the requests they answer, as webhook deliveries are leased:
/// one instance answers a request at a time, another takes it over if that one dies, and an
/// answer Apple accepted is never sent again.
public final class RefundResponder: Sendable {
    let backend: SubscriptionBackend
    let http: HTTPClient
    private let wake: WakeSignal
    private let stopping = Mutex(false)

    /// How long an instance holds the requests it took: a call's timeout (30 s) and a margin.
    static let leaseMs: Int64 = 60_000
    /// Requests taken per round.
    static let roundSize = 16
    /// The longest sleep without a poke.
    static let longestSleepMs: Int64 = 5_000

    /// `wake`: the signal the backend pokes when it records events (a request makes one).
    public init(backend: SubscriptionBackend, http: HTTPClient, wake: WakeSignal = WakeSignal()) {
        self.backend = backend
        self.http = http
        self.wake = wake
    }

    /// Starts a round now instead of at the next poll.
    public func poke() { wake.signal() }

    /// Ends `run` after the answer in flight.
    public func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    /// Answers until `stop()` or cancellation; sleeps until a poke or the next due attempt. No
    /// app with refund control on: returns at once.
    public func run() async {
        guard backend.configuration.apps.contains(where: { $0.refundControl.policy != .off }) else { return }
        while !Task.isCancelled && !isStopping {
            var full = false
            do {
                full = try await round() == Self.roundSize
            } catch {
                backend.logger.warning("refund control round failed", metadata: ["error": "\(error)"])
            }
            if full { continue }
            let due = (try? await backend.database.nextRefundAttemptMs()).map { $0 - backend.nowMs() }
            let wait = due.map { $0 <= 0 ? Self.longestSleepMs : min($0, Self.longestSleepMs) } ?? Self.longestSleepMs
            await wake.wait(timeout: .milliseconds(wait))
        }
    }

    /// Leases the due requests and decides each once; returns how many were due.
    @discardableResult
    public func round() async throws -> Int {
        let now = backend.nowMs()
        let leaseUntil = now + Self.leaseMs
        let due = try await backend.database.write { store in
            try await store.leaseDueRefundRequests(nowMs: now, limit: Self.roundSize, untilMs: leaseUntil)
        }
        var next = 0
        while next < due.count, !isStopping {
            let row = due[next]
            next += 1
            try await answer(row, leaseUntil: leaseUntil)
        }
        if next < due.count {
            let unstarted = Array(due[next...])
            try await backend.database.write { store in try await store.releaseRefundLeases(unstarted, untilMs: leaseUntil) }
        }
        return due.count
    }

    private func answer(_ leased: RefundRequestRow, leaseUntil: Int64) async throws {
        var row = leased
        guard let app = backend.configuration.apps.first(where: { $0.bundleId == leased.bundleId }) else {
            row.state = RefundRequestState.failed
            row.lastError = "the app \(leased.bundleId) is no longer configured"
            try await save(row, leased: leased, leaseUntil: leaseUntil)
            return
        }
        let owner = try await backend.database.owner(environment: leased.environment, original: leased.originalTransactionId)
        var consented = app.refundControl.consent == .all
        if !consented, let owner { consented = try await backend.database.consented(owner) }
        let decision = leased.outcome != nil
            ? .close(state: RefundRequestState.expired, reason: "the App Store decided before an answer was sent")
            : RefundControlRules.decide(app.refundControl, consented: consented, hasAPIKey: app.apiKey != nil,
                                        nowMs: backend.nowMs(), deadlineMs: leased.deadlineMs)
        switch decision {
        case .close(let state, let reason):
            row.state = state
            row.lastError = reason
            try await save(row, leased: leased, leaseUntil: leaseUntil)
        case .send(let body):
            row.attempts += 1
            do {
                guard let key = app.apiKey else { throw BackendRequestError("no API key") }
                let client = ServerAPIClient(baseURL: app.baseURL(environment: leased.environment),
                                             signer: try key.signer(bundleId: app.bundleId), http: http, clock: backend.clock)
                try await client.sendConsumptionInformation(transactionId: leased.transactionId, body: body.json())
                row.state = RefundRequestState.answered
                row.answeredMs = backend.nowMs()
                row.lastStatus = 202
                row.lastError = nil
                row.refundPreference = body.refundPreference
            } catch let failure as ServerAPIFailure {
                row.lastStatus = failure.status == 0 ? nil : failure.status
                row.lastError = failure.description
                retryOrFail(&row, retryable: failure.isRetryable)
            } catch {
                row.lastError = "\(error)"
                retryOrFail(&row, retryable: false)
            }
            try await save(row, leased: leased, leaseUntil: leaseUntil)
        }
    }

    private func retryOrFail(_ row: inout RefundRequestRow, retryable: Bool) {
        if retryable, let next = RefundControlRules.nextAttempt(afterAttempt: row.attempts, nowMs: backend.nowMs(), deadlineMs: row.deadlineMs) {
            row.nextAttemptMs = next
        } else {
            row.state = RefundRequestState.failed
        }
    }

    /// Saves the attempt under the lease; an answered request also makes its event.
    private func save(_ row: RefundRequestRow, leased: RefundRequestRow, leaseUntil: Int64) async throws {
        let webhooks = backend.configuration.webhooks
        let app = backend.configuration.apps.first(where: { $0.bundleId == row.bundleId })
        let nowMs = backend.nowMs()
        let saved = try await backend.database.write { transaction -> Bool in
            guard try await transaction.saveAttempt(row, leased: leased, untilMs: leaseUntil) else { return false }
            if row.state == RefundRequestState.answered, let app {
                try await LedgerStore.writing(on: transaction, keys: []) { store in
                    var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: nowMs)
                    try await writer.refundAnswered(row)
                }
            }
            return true
        }
        if !saved {
            backend.logger.warning("refund answer not recorded: its lease ran out", metadata: ["request": "\(row.notificationUUID)"])
        } else if row.state == RefundRequestState.answered {
            backend.onEvents()
        }
        if row.state != RefundRequestState.answered && row.state != RefundRequestState.pending {
            backend.logger.info("refund request not answered", metadata: [
                "request": "\(row.notificationUUID)", "state": "\(row.state)", "reason": "\(row.lastError ?? "")"])
        }
    }

}

extension SubscriptionBackend {
    /// The newest refund requests first, with the counts the dashboard shows.
    public func refundRequests(limit: Int) async throws -> RefundRequestReport {
        RefundRequestReport(counts: .init(try await database.refundRequestStates(environment: nil)),
                            requests: try await database.refundRequests(limit: limit).map(RefundRequestReport.Request.init))
    }

    /// Records whether the customer consented to consumption data being sent to Apple when they
    /// ask for a refund (Apple's `customerConsented`); the latest word counts.
    /// An alias records it for its customer; a deleted customer's stand-in cannot consent.
    public func recordConsent(appUserId: String, consented: Bool) async throws -> ConsumptionConsent {
        let now = nowMs()
        let row = try await database.write { store -> ConsentRow in
            let id = try await store.resolve(appUserId) ?? appUserId
            guard !CustomerIdentity.isDeleted(id) else { throw StandInRefused() }
            let row = ConsentRow(appUserId: id, consented: consented, recordedMs: now)
            try await store.save(row)
            return row
        }
        return ConsumptionConsent(appUserId: row.appUserId, consented: consented, recordedMs: row.recordedMs)
    }
}

/// A customer's consent as the app recorded it (`PUT /v1/customers/{id}/consumption-consent`).
public struct ConsumptionConsent: Codable, Sendable, Equatable {
    public var appUserId: String
    /// Whether consumption data may be sent for this customer's refund requests.
    public var consented: Bool
    /// When the backend recorded it, by its clock (ms).
    public var recordedMs: Int64
}

/// `GET /v1/admin/refund-requests`: what refund control did.
public struct RefundRequestReport: Codable, Sendable, Equatable {
    /// The dashboard's figures: all requests, those answered, and the App Store's decisions.
    public struct Counts: Codable, Sendable, Equatable {
        /// CONSUMPTION_REQUEST notifications received.
        public var requested: Int
        /// Answers Apple accepted.
        public var answered: Int
        /// Requests the App Store granted (the transaction was refunded).
        public var granted: Int
        /// Requests the App Store declined (REFUND_DECLINED).
        public var declined: Int

        /// The four counts as given.
        public init(requested: Int, answered: Int, granted: Int, declined: Int) {
            (self.requested, self.answered, self.granted, self.declined) = (requested, answered, granted, declined)
        }

        /// Counted from every request's state and outcome.
        init(_ states: [(state: String, outcome: String?)]) {
            self.init(requested: states.count, answered: states.filter { $0.state == RefundRequestState.answered }.count,
                      granted: states.filter { $0.outcome == "granted" }.count,
                      declined: states.filter { $0.outcome == "declined" }.count)
        }
    }

    /// One request: when, why, what the backend did, what the App Store decided.
    public struct Request: Codable, Sendable, Equatable {
        /// The CONSUMPTION_REQUEST's `notificationUUID`.
        public var id: String
        public var bundleId: String
        public var environment: String
        public var transactionId: String
        public var originalTransactionId: String
        /// Apple's `consumptionRequestReason`.
        public var reason: String?
        /// The notification's `signedDate` (ms).
        public var requestedMs: Int64
        /// The last moment an answer is started (ms).
        public var deadlineMs: Int64
        /// `pending`, `answered`, `off`, `noConsent`, `failed` or `expired`.
        public var state: String
        public var attempts: Int
        /// Why it is not answered, or the last failure.
        public var lastError: String?
        public var answeredMs: Int64?
        /// The `refundPreference` sent.
        public var refundPreference: String?
        /// `granted` or `declined`, once the App Store decided.
        public var outcome: String?

        init(_ row: RefundRequestRow) {
            id = row.notificationUUID
            bundleId = row.bundleId
            environment = row.environment
            transactionId = row.transactionId
            originalTransactionId = row.originalTransactionId
            reason = row.reason
            requestedMs = row.requestedMs
            deadlineMs = row.deadlineMs
            state = row.state
            attempts = row.attempts
            lastError = row.lastError
            answeredMs = row.answeredMs
            refundPreference = row.refundPreference
            outcome = row.outcome
        }
    }

    public var counts: Counts
    public var requests: [Request]
}
