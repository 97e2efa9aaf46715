import Foundation
import StoreKitTypes

extension AppTransaction {
    /// The customer's app transaction, fetched once per connection and kept (StoreKit caches it
    /// too); `refresh()` asks again.
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            let connection = try OpenStoreKit.connection()
            if let cached = connection.appTransactionCache.withLock({ $0 }) { return cached }
            return try await refresh()
        }
    }

    /// Fetches the app transaction anew (StoreKit may ask the customer to sign in for this).
    public static func refresh() async throws -> VerificationResult<AppTransaction> {
        let connection = try OpenStoreKit.connection()
        let session = try await connection.start()
        struct Body: Decodable { var signedAppTransaction: String }
        let body = try connection.decode(Body.self, try await connection.send(.GET, connection.customer + "/app-transaction"))
        let result: VerificationResult<AppTransaction>
        do {
            result = try session.verifier.appTransaction(body.signedAppTransaction)
        } catch {
            throw StoreKitError.systemError(OpenStoreKitError.badResponse("the signed app transaction: \(error)"))
        }
        connection.appTransactionCache.withLock { $0 = result }
        return result
    }
}
