import Foundation
import StoreKitTypes

extension Product.SubscriptionInfo {
    /// Whether the customer may still take an introductory offer in this group: only if they
    /// never had a subscription in it (Apple's rule), judged from their transactions.
    public var isEligibleForIntroOffer: Bool {
        get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
    }

    /// `isEligibleForIntroOffer(for:)`: false also when the store cannot be reached.
    public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
        do {
            let all = try await OpenStoreKit.connection().signedTransactions("transactions")
            return !all.contains { $0.unsafePayloadValue.subscriptionGroupID == groupID }
        } catch {
            OpenStoreKit.logger.error("isEligibleForIntroOffer(for: \(groupID)): \(error)")
            return false
        }
    }

    /// The customer's subscription(s) in this group and where they stand.
    public var status: [Status] {
        get async throws { try await Self.status(for: subscriptionGroupID) }
    }

    /// `status(for:)`: the statuses of one subscription group.
    public static func status(for groupID: String) async throws -> [Status] {
        try await OpenStoreKit.connection().subscriptionStatuses().filter { $0.group == groupID }.map(\.status)
    }
}

extension StoreConnection {
    /// Every group's status, from the device API's subscriptions route.
    func subscriptionStatuses() async throws -> [(group: String, status: Product.SubscriptionInfo.Status)] {
        let session = try await start()
        struct Body: Decodable {
            struct Item: Decodable {
                var subscriptionGroupID: String
                var status: Int
                var signedTransaction: String
                var signedRenewalInfo: String
            }
            var statuses: [Item]
        }
        let body = try decode(Body.self, try await send(.GET, customer + "/subscriptions"))
        return try body.statuses.map { item in
            do {
                return (item.subscriptionGroupID, Product.SubscriptionInfo.Status(
                    state: .init(rawValue: item.status), transaction: try session.verifier.transaction(item.signedTransaction),
                    renewalInfo: try session.verifier.renewalInfo(item.signedRenewalInfo)))
            } catch {
                throw StoreKitError.systemError(OpenStoreKitError.badResponse("subscription status of \(item.subscriptionGroupID): \(error)"))
            }
        }
    }
}
