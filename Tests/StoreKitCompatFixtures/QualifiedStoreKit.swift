import StoreKit

/// Code that spells StoreKit's names with the module, as apps do where SwiftUI's `Transaction`
/// (or their own) would otherwise clash, and that uses Foundation's types with no import but
/// StoreKit's (`UUID`, `Date`, `URL`, `JSONSerialization`, `Bundle`).
public struct ReceiptSummary: Sendable {
    public var productID: String
    public var transactionID: UInt64
    public var purchased: Date
    public var expires: Date?
    public var willAutoRenew: Bool?
    public var accountToken: UUID?
    public var revoked: Bool
}

public enum QualifiedStoreKit {
    /// The customer's current entitlements, verified, with renewal info where there is some.
    public static func summaries() async -> [ReceiptSummary] {
        var summaries: [ReceiptSummary] = []
        for await result in StoreKit.Transaction.currentEntitlements {
            guard case .verified(let transaction) = result else { continue }
            var willAutoRenew: Bool?
            if let groupID = transaction.subscriptionGroupID,
               let statuses = try? await StoreKit.Product.SubscriptionInfo.status(for: groupID),
               let status = statuses.first(where: { $0.transaction.unsafePayloadValue.originalID == transaction.originalID }) {
                let renewal: StoreKit.Product.SubscriptionInfo.RenewalInfo? = try? status.renewalInfo.payloadValue
                willAutoRenew = renewal?.willAutoRenew
            }
            summaries.append(ReceiptSummary(
                productID: transaction.productID, transactionID: transaction.id, purchased: transaction.purchaseDate,
                expires: transaction.expirationDate, willAutoRenew: willAutoRenew, accountToken: transaction.appAccountToken,
                revoked: transaction.revocationDate != nil))
        }
        return summaries
    }

    /// Buys with an account token, as an app that ties purchases to its own user IDs does.
    public static func buy(_ productID: String, for user: UUID) async throws -> StoreKit.Transaction? {
        guard let product = try await StoreKit.Product.products(for: [productID]).first else { return nil }
        let result: StoreKit.Product.PurchaseResult = try await product.purchase(options: [.appAccountToken(user)])
        guard case .success(let verification) = result else { return nil }
        let verified: StoreKit.VerificationResult<StoreKit.Transaction> = verification
        let transaction = try verified.payloadValue
        await transaction.finish()
        return transaction
    }

    /// What an app sends its server: the JWS in a JSON body built with `JSONSerialization`, as a
    /// `URLRequest` for `URLSession` (FoundationNetworking on Linux, also through StoreKit).
    public static func serverRequest(for transaction: StoreKit.Transaction, endpoint: URL) throws -> URLRequest {
        let body: [String: Any] = [
            "signedTransaction": transaction.jwsRepresentation,
            "bundleID": Bundle.main.bundleIdentifier ?? transaction.appBundleID,
            "sentAt": Date().timeIntervalSince1970,
            "requestID": UUID().uuidString,
        ]
        var request = URLRequest(url: endpoint.appendingPathComponent("transactions"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        return request
    }

    /// The session an app would send it with.
    public static var session: URLSession { URLSession.shared }

    /// Restores, then reads the app transaction, as a launch check does.
    public static func restore() async throws -> StoreKit.AppTransaction? {
        try await StoreKit.AppStore.sync()
        let shared: StoreKit.VerificationResult<StoreKit.AppTransaction> = try await StoreKit.AppTransaction.shared
        return try? shared.payloadValue
    }

    /// The storefront, with StoreKit's qualifier.
    public static func storefrontCountry() async -> String? {
        await StoreKit.Storefront.current?.countryCode
    }
}
