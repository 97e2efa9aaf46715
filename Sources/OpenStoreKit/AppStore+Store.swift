import Foundation
import StoreKitTypes

extension AppStore {
    /// `AppStore.sync()`: restores purchases; afterwards `Transaction.all` and
    /// `currentEntitlements` reflect everything the customer owns.
    public static func sync() async throws {
        let connection = try OpenStoreKit.connection()
        _ = try await connection.start()
        _ = try await connection.send(.POST, connection.customer + "/sync")
    }

    /// `AppStore.requestReview(in:)`, reporting what a device would only show: whether the
    /// rating prompt would appear now for the configured app version (at most three times in 365
    /// days, never twice for one version).
    @discardableResult
    public static func requestReview() async throws -> Bool {
        let connection = try OpenStoreKit.connection()
        _ = try await connection.start()
        struct Decision: Decodable { var wouldShowPrompt: Bool }
        let answer = try await connection.send(.POST, connection.customer + "/request-review",
                                               json: ["appVersion": connection.configuration.appVersion])
        return try connection.decode(Decision.self, answer).wouldShowPrompt
    }

    /// What `presentOfferCodeRedeemSheet(in:)` does once the customer typed a code: redeems it.
    /// There is no sheet here, so the code is the argument. The subscription it starts also
    /// arrives on `Transaction.updates`.
    public static func redeemOfferCode(_ code: String) async throws -> Product.PurchaseResult {
        let connection = try OpenStoreKit.connection()
        let session = try await connection.start()
        let answer = try await connection.send(.POST, connection.customer + "/redeem-code", json: ["code": code], refusals: .purchase)
        return try connection.purchaseResult(answer, verifier: session.verifier)
    }

    /// `showManageSubscriptions(in:)`: opens the store's manage-subscriptions route (or throws
    /// the simulated "Manage Subscriptions Sheet" error). Returns the web page where a person can
    /// manage the customer's subscriptions.
    @discardableResult
    public static func showManageSubscriptions() async throws -> URL {
        let connection = try OpenStoreKit.connection()
        _ = try await connection.start()
        _ = try await connection.send(.POST, connection.customer + "/manage-subscriptions")
        var components = URLComponents(string: connection.base + "/store")
        components?.queryItems = [URLQueryItem(name: "customer", value: connection.configuration.customer),
                                  URLQueryItem(name: "world", value: connection.configuration.world)]
        return components?.url ?? connection.configuration.store
    }
}
