import Foundation
import StoreModel

/// Get All Subscription Statuses (`GET /inApps/v1/subscriptions/{transactionId}`).
public struct StatusResponse: Codable, Sendable, Equatable {
    /// Apple's `lastTransactionsItem`: one subscription's status and latest signed data.
    public struct LastTransactionsItem: Codable, Sendable, Equatable {
        /// Subscription status 1–5: active, expired, billing retry, billing grace period, revoked.
        public var status: Int
        /// The subscription's original transaction ID.
        public var originalTransactionId: String
        /// The subscription's latest transaction, signed (JWS).
        public var signedTransactionInfo: String
        /// The subscription's renewal info, signed (JWS).
        public var signedRenewalInfo: String
    }
    /// Apple's `SubscriptionGroupIdentifierItem`: the customer's subscriptions in one group.
    public struct SubscriptionGroupIdentifierItem: Codable, Sendable, Equatable {
        /// The subscription group's ID.
        public var subscriptionGroupIdentifier: String
        /// One item per subscription in the group that passes the `status` filter.
        public var lastTransactions: [LastTransactionsItem]
    }
    /// `Sandbox` or `Production`: the app's environment.
    public var environment: String
    /// The app's bundle ID.
    public var bundleId: String
    /// The app's Apple ID, as its catalog gives it.
    public var appAppleId: Int64
    /// One item per subscription group with at least one matching subscription.
    public var data: [SubscriptionGroupIdentifierItem]
}

extension AppStore {
    /// Every subscription group the customer behind any of their transaction IDs has subscribed
    /// to, with the latest transaction and renewal info of each subscription; `status` filters.
    public func allSubscriptionStatuses(anyTransactionId: String, statusFilter: [String], caller: ServerAPICaller) async throws -> StatusResponse {
        var wanted: Set<Int> = []
        for text in statusFilter {
            guard let value = Int(text), SubscriptionStatus(rawValue: value) != nil else {
                throw ServerAPIError(code: 4_000_031, message: "Invalid request. The status parameter is invalid.")
            }
            wanted.insert(value)
        }
        let found = try await serverAPITransaction(anyTransactionId, caller: caller)
        let items = try await subscriptionStatuses(bundleId: found.app.bundleId, customer: found.record.customer, world: caller.world)
        var groups: [String: [StatusResponse.LastTransactionsItem]] = [:]
        var order: [String] = []
        for item in items where wanted.isEmpty || wanted.contains(item.status.rawValue) {
            if groups[item.groupId] == nil { order.append(item.groupId) }
            groups[item.groupId, default: []].append(.init(
                status: item.status.rawValue, originalTransactionId: item.originalTransactionId,
                signedTransactionInfo: item.transaction.jws, signedRenewalInfo: item.renewalInfo.jws))
        }
        return StatusResponse(
            environment: found.app.environment.rawValue, bundleId: found.app.bundleId, appAppleId: found.app.appAppleId,
            data: order.map { .init(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0] ?? []) })
    }
}
