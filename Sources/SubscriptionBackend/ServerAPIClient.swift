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
    public let baseURL: String
    let signer: APITokenSigner
    let http: HTTPClient

    public init(baseURL: String, signer: APITokenSigner, http: HTTPClient) {
        self.baseURL = baseURL
        self.signer = signer
        self.http = http
    }

    public struct HistoryPage: Decodable, Sendable {
        public var revision: String?
        public var hasMore: Bool?
        public var signedTransactions: [String]?
    }

    public struct NotificationHistoryPage: Decodable, Sendable {
        public struct Item: Decodable, Sendable { public var signedPayload: String? }
        public var paginationToken: String?
        public var hasMore: Bool?
        public var notificationHistory: [Item]?
    }

    public struct StatusResponse: Decodable, Sendable {
        public struct Group: Decodable, Sendable {
            public var subscriptionGroupIdentifier: String?
            public var lastTransactions: [Item]?
        }
        public struct Item: Decodable, Sendable {
            public var status: Int?
            public var originalTransactionId: String?
            public var signedTransactionInfo: String?
            public var signedRenewalInfo: String?
        }
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

    private func call<T: Decodable>(_ method: HTTPMethod, _ path: String, body: Data?) async throws -> T {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer " + signer.token(options: .init(includeIssuedAt: true, fractionalDates: false)))
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
                                   message: parsed?.errorMessage ?? String(decoding: data.prefix(200), as: UTF8.self))
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw ServerAPIFailure(status: Int(response.status.code), errorCode: nil, message: "\(path): response does not decode: \(error)")
        }
    }

    static func escape(_ s: String) -> String { PercentEncoding.unreserved(s) }
}

private struct ErrorBody: Decodable {
    var errorCode: Int64?
    var errorMessage: String?
}

/// A Server API call that failed: Apple's HTTP status and `errorCode` when it sent one.
public struct ServerAPIFailure: Error, Sendable, CustomStringConvertible {
    public var status: Int
    public var errorCode: Int64?
    public var message: String

    /// START_DATE_TOO_FAR_IN_PAST.
    public var startTooFarInPast: Bool { errorCode == 4_000_012 }
    /// Codes Apple marks retryable, rate limiting, server errors and network failures.
    public var isRetryable: Bool {
        [4_040_002, 4_040_004, 4_040_006, 5_000_001].contains(errorCode ?? 0) || status == 429 || status >= 500 || status == 0
    }

    public var description: String {
        "Server API \(status)" + (errorCode.map { " \($0)" } ?? "") + ": \(message)"
    }
}
