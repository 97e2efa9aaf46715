import Foundation
import StoreModel
import StoreStorage

/// The world's verbs for the App Store Server API's verbs named for an app directly (the gateway passes a `ServerAPICaller`).
extension StoreWorld {
    /// The same for an app and world named directly (tests, admin tools).
    public func extendRenewalDate(originalTransactionId: String, request: ExtendRenewalDateRequest, bundleId: String) async throws -> ExtendRenewalDateResponse {
        try await reported { try await store.extendRenewalDate(originalTransactionId: originalTransactionId, request: request, bundleId: bundleId, world: id) }
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers, for an app named directly; it
    /// completes before it returns.
    public func extendRenewalDatesForAllActiveSubscribers(_ request: MassExtendRenewalDateRequest, bundleId: String) async throws -> MassExtendRenewalDateResponse {
        try await reported { try await store.extendRenewalDatesForAllActiveSubscribers(request, bundleId: bundleId, world: id) }
    }

    /// Get Status of Subscription Renewal Date Extensions, for an app named directly.
    public func massExtensionStatus(productId: String, requestIdentifier: String, bundleId: String) async throws -> MassExtendRenewalDateStatusResponse {
        try await reported { try await store.massExtensionStatus(productId: productId, requestIdentifier: requestIdentifier, bundleId: bundleId, world: id) }
    }

    /// The latest consumption information for a transaction, as sent (normalized JSON).
    public func consumptionInformation(transactionId: Int64) async throws -> ConsumptionInformation? {
        try await reported { try await store.consumptionInformation(transactionId: transactionId, world: id) }
    }
}
