import AsyncHTTPClient
import Foundation
import StoreShared
import NIOCore
import NIOHTTP1
import StoreSigning

/// The App Store Server API as the backend calls it: Apple's paths, a fresh ES256 bearer token
/// per request (signed by StoreSigning), pages followed, Apple's error codes surfaced. Works
/// against Apple's hosts and against an OpenStoreKit store alike.
public struct ServerAPIClient: Sendable {
    /// Apple's host for the environment, or a store's URL (`apiBaseURL`); Apple's paths are appended to it.
    public let baseURL: String
    let signer: APITokenSigner
    let http: HTTPClient
    /// Dates each bearer token (`iat`, `exp`): the backend's clock, so a test sets the time.
    let clock: WallClock
    /// Keeps calls to Apple's hosts within Apple's published rates.
    let pacer: ServerAPIPacer
    /// Times a call answered 429 is tried again, each after the wait its `Retry-After` asks for.
    static let rateLimitRetries = 5
    /// The longest wait for one 429 (a `Retry-After` further away fails the call; the pass goes on).
    static let longestRetryWait: Duration = .seconds(60)

    /// One client per app and environment; every request signs a fresh bearer token with `signer`,
    /// dated by `clock`.
    public init(baseURL: String, signer: APITokenSigner, http: HTTPClient, clock: WallClock) {
        self.baseURL = baseURL
        self.signer = signer
        self.http = http
        self.clock = clock
        self.pacer = ServerAPIPacer(baseURL: baseURL)
    }

    /// A Get Transaction History response (Apple's `HistoryResponse`), reduced to what the backend reads.
    public struct HistoryPage: Decodable, Sendable {
        /// Apple's `revision`: where the next page, or the next pass, continues; stored per customer.
        public var revision: String?
        /// Apple's `hasMore`: the reconciler keeps paging while it is true.
        public var hasMore: Bool?
        /// Apple's `signedTransactions`: JWS transactions, verified before use.
        public var signedTransactions: [String]?
    }

    /// A Get Notification History response (Apple's `NotificationHistoryResponse`), reduced to what the backend reads.
    public struct NotificationHistoryPage: Decodable, Sendable {
        /// Apple's `NotificationHistoryResponseItem`, of which only `signedPayload` is read.
        public struct Item: Decodable, Sendable { public var signedPayload: String? }
        /// Apple's `paginationToken`, sent back to get the next page.
        public var paginationToken: String?
        /// Apple's `hasMore`: whether `paginationToken` leads to another page.
        public var hasMore: Bool?
        /// Apple's `notificationHistory` items; each `signedPayload` is verified like a live notification.
        public var notificationHistory: [Item]?
    }

    /// A Get All Subscription Statuses response (Apple's `StatusResponse`), reduced to what the backend reads.
    public struct StatusResponse: Decodable, Sendable {
        /// Apple's `SubscriptionGroupIdentifierItem`: one subscription group's latest transactions.
        public struct Group: Decodable, Sendable {
            /// Apple's `subscriptionGroupIdentifier`.
            public var subscriptionGroupIdentifier: String?
            /// Apple's `lastTransactions`: one item per subscription in the group.
            public var lastTransactions: [Item]?
        }
        /// Apple's `LastTransactionsItem`: a subscription's latest transaction and renewal info.
        public struct Item: Decodable, Sendable {
            /// Apple's status (1 active … 5 revoked). Unsigned, so the backend works from the signed items instead.
            public var status: Int?
            /// Apple's `originalTransactionId` (unsigned; the signed transaction carries it too).
            public var originalTransactionId: String?
            /// The latest transaction's JWS, verified before it is applied.
            public var signedTransactionInfo: String?
            /// The renewal info's JWS, verified before it is applied.
            public var signedRenewalInfo: String?
        }
        /// Apple's `data`: one entry per subscription group.
        public var data: [Group]?
    }

    /// Get Transaction History (v2), one page from `revision`.
    public func transactionHistory(transactionId: String, revision: String?) async throws -> HistoryPage {
        var path = "/inApps/v2/history/\(Self.escape(transactionId))?sort=ASCENDING"
        if let revision { path += "&revision=\(Self.escape(revision))" }
        return try await call(.GET, path, body: nil)
    }

    /// Get Notification History, one page.
    public func notificationHistory(startMs: Int64, endMs: Int64, onlyFailures: Bool, paginationToken: String?) async throws -> NotificationHistoryPage {
        var path = "/inApps/v1/notifications/history"
        if let paginationToken { path += "?paginationToken=\(Self.escape(paginationToken))" }
        var body = "{\"startDate\":\(startMs),\"endDate\":\(endMs)"
        if onlyFailures { body += ",\"onlyFailures\":true" }
        body += "}"
        return try await call(.POST, path, body: Data(body.utf8))
    }

    /// Get All Subscription Statuses.
    public func allSubscriptionStatuses(transactionId: String) async throws -> StatusResponse {
        try await call(.GET, "/inApps/v1/subscriptions/\(Self.escape(transactionId))", body: nil)
    }

    /// Send Consumption Information (v2): Apple answers 202 with no body.
    public func sendConsumptionInformation(transactionId: String, body: Data) async throws {
        _ = try await send(.PUT, "/inApps/v2/transactions/consumption/\(Self.escape(transactionId))", body: body)
    }

    /// One call whose answer decodes as `T`.
    private func call<T: Decodable>(_ method: HTTPMethod, _ path: String, body: Data?) async throws -> T {
        let (data, status) = try await send(method, path, body: body)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw ServerAPIFailure(status: status, errorCode: nil, message: "\(path): response does not decode: \(error)")
        }
    }

    /// One call, paced for Apple's hosts; a 429 is tried again after the wait its `Retry-After`
    /// asks for (at most `rateLimitRetries` times, each wait at most `longestRetryWait`).
    /// Returns a 2xx answer's body and status.
    private func send(_ method: HTTPMethod, _ path: String, body: Data?) async throws -> (Data, Int) {
        var attempt = 0
        while true {
            try await pacer.acquire()
            do {
                return try await callOnce(method, path, body: body)
            } catch let failure as ServerAPIFailure where failure.status == 429 && attempt < Self.rateLimitRetries {
                attempt += 1
                let wait = failure.retryAfter ?? .seconds(1 << min(attempt, 5))
                guard wait <= Self.longestRetryWait else { throw failure }
                try await Task.sleep(for: wait)
            }
        }
    }

    private func callOnce(_ method: HTTPMethod, _ path: String, body: Data?) async throws -> (Data, Int) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer " + signer.token(now: Date(timeIntervalSince1970: Double(clock.nowMs()) / 1000), options: .init(includeIssuedAt: true, fractionalDates: false)))
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "openstorekit-subscription-backend")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .seconds(30))
            bytes = try await response.body.collect(upTo: 4 << 20)
        } catch {
            throw ServerAPIFailure(status: 0, errorCode: nil, message: "\(method.rawValue) \(path): \(error)")
        }
        let data = Data(buffer: bytes)
        guard (200..<300).contains(response.status.code) else {
            let parsed = try? JSONDecoder().decode(ErrorBody.self, from: data)
            throw ServerAPIFailure(status: Int(response.status.code), errorCode: parsed?.errorCode,
                                   message: parsed?.errorMessage ?? String(decoding: data.prefix(200), as: UTF8.self),
                                   retryAfter: ServerAPIFailure.retryDelay(retryAfter: response.headers.first(name: "Retry-After"), nowMs: clock.nowMs()))
        }
        return (data, Int(response.status.code))
    }

    static func escape(_ s: String) -> String { PercentEncoding.unreserved(s) }
}

extension APIKeyConfiguration {
    /// The bearer-token signer of this key for `bundleId`, with the `.p8` read now, so a key
    /// replaced on disk is picked up by the next pass or answer.
    func signer(bundleId: String) throws -> APITokenSigner {
        let p8 = try String(contentsOfFile: privateKeyFile, encoding: .utf8)
        return try APITokenSigner(keyId: keyId, issuerId: issuerId, bundleId: bundleId, privateKeyP8: p8)
    }
}

private struct ErrorBody: Decodable {
    var errorCode: Int64?
    var errorMessage: String?
}

/// A Server API call that failed: Apple's HTTP status and `errorCode` when it sent one.
public struct ServerAPIFailure: Error, Sendable, CustomStringConvertible {
    /// The HTTP status the server answered; 0 when no answer came (a network failure or timeout).
    public var status: Int
    /// Apple's `errorCode` (4000012 is START_DATE_TOO_FAR_IN_PAST), when the body carried one.
    public var errorCode: Int64?
    /// Apple's `errorMessage`, else the start of the body, else the transport error.
    public var message: String
    /// For a 429: how long its `Retry-After` asks to wait.
    public var retryAfter: Duration?

    /// A failed call: status, Apple's code and message, and a 429's wait.
    public init(status: Int, errorCode: Int64?, message: String, retryAfter: Duration? = nil) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
        self.retryAfter = retryAfter
    }

    /// START_DATE_TOO_FAR_IN_PAST.
    public var startTooFarInPast: Bool { errorCode == 4_000_012 }
    /// Codes Apple marks retryable, rate limiting, server errors and network failures.
    public var isRetryable: Bool {
        [4_040_002, 4_040_004, 4_040_006, 5_000_001].contains(errorCode ?? 0) || status == 429 || status >= 500 || status == 0
    }

    /// One line for reports and logs: status, Apple's code, message.
    public var description: String {
        "Server API \(status)" + (errorCode.map { " \($0)" } ?? "") + ": \(message)"
    }
}
