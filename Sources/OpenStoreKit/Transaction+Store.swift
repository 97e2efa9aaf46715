import Foundation
import StoreKitTypes

extension Transaction {
    /// Every transaction of the customer for the app: non-consumables, subscriptions with every
    /// renewal, unfinished consumables, refunded ones, family-shared grants.
    public static var all: Transactions { .list { try await $0.signedTransactions("transactions") } }

    /// What the customer is entitled to now: one transaction per non-consumable, the latest of
    /// each active subscription (subscribed or in grace period), non-renewing subscriptions;
    /// nothing refunded or revoked.
    public static var currentEntitlements: Transactions { .list { try await $0.signedTransactions("entitlements") } }

    /// Transactions the app has not finished yet.
    public static var unfinished: Transactions { .list { try await $0.signedTransactions("unfinished") } }

    /// Transaction changes as the store makes them, pushed: first the unfinished transactions,
    /// then renewals, refunds and revocations, Ask to Buy approvals, offer-code redemptions,
    /// family-sharing grants and purchases made elsewhere (another device, the `/store` pages).
    /// Reconnects with backoff and resumes where it stopped, without loss or duplicates.
    public static var updates: Transactions {
        let resolved = Result { try OpenStoreKit.connection() }
        return Transactions { TransactionUpdates(connection: resolved).stream() }
    }

    /// The entitlement to one product, if any (StoreKit deprecated it in iOS 18.4 for
    /// `currentEntitlements(for:)`; both are here).
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        for await result in currentEntitlements(for: productID) { return result }
        return nil
    }

    /// Every entitlement to one product.
    public static func currentEntitlements(for productID: String) -> Transactions {
        .list { try await $0.signedTransactions("entitlements").filter { $0.unsafePayloadValue.productID == productID } }
    }

    /// The customer's latest transaction for a product (the newest purchase date), if any.
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        var latest: VerificationResult<Transaction>?
        for await result in all(for: productID)
        where latest.map({ result.unsafePayloadValue.purchaseDate >= $0.unsafePayloadValue.purchaseDate }) ?? true {
            latest = result
        }
        return latest
    }

    /// Every transaction for one product.
    public static func all(for productID: String) -> Transactions {
        .list { try await $0.signedTransactions("transactions").filter { $0.unsafePayloadValue.productID == productID } }
    }

    /// Tells the store the app delivered the content: the transaction leaves `unfinished`.
    /// Like StoreKit's, it does not throw; a failure is logged.
    public func finish() async {
        do {
            let connection = try OpenStoreKit.connection()
            _ = try await connection.send(.POST, connection.customer + "/transactions/\(id)/finish")
        } catch {
            OpenStoreKit.logger.error("finishing transaction \(id) failed: \(error)")
        }
    }

    /// Asks the App Store for a refund through its refund request flow (the developer gets a
    /// CONSUMPTION_REQUEST). There is no sheet here, so `reason` is the one the customer picks:
    /// `UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, `UNSATISFIED_WITH_PURCHASE`, `LEGAL` or `OTHER`.
    public func beginRefundRequest(reason: String = "OTHER") async throws -> RefundRequestStatus {
        try await Self.beginRefundRequest(for: id, reason: reason)
    }

    /// `beginRefundRequest(for:in:)` without a scene.
    public static func beginRefundRequest(for transactionID: UInt64, reason: String = "OTHER") async throws -> RefundRequestStatus {
        let connection = try OpenStoreKit.connection()
        _ = try await connection.start()
        do {
            _ = try await connection.send(.POST, connection.customer + "/transactions/\(transactionID)/refund-request",
                                          json: ["reason": reason], refusals: .refund)
        } catch StoreKitError.userCancelled {
            return .userCancelled
        }
        return .success
    }
}

extension StoreConnection {
    /// One of the device API's lists of signed transactions, verified.
    func signedTransactions(_ list: String) async throws -> [VerificationResult<Transaction>] {
        let session = try await start()
        struct Body: Decodable { var signedTransactions: [String] }
        return session.verifier.transactions(try decode(Body.self, try await send(.GET, customer + "/" + list)).signedTransactions)
    }
}
