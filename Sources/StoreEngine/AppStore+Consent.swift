import Foundation
import StoreModel
import StoreSigning
import StoreStorage

/// `RESCIND_CONSENT` (App Store Server Notifications, November 4, 2025): the customer, or their
/// parent or guardian, withdrew consent for the app (Apple's age-assurance rules). The
/// notification carries `appData` (`appAppleId`, `bundleId`, `environment`,
/// `signedAppTransactionInfo`) instead of `data`. Apple sends it when it happens; the Transaction
/// Manager makes it happen on request, for testing the server's handling of it.
extension AppStore {
    func rescindConsent(bundleId: String, customer: String, world: String) async throws -> Signed<AppTransactionPayload> {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(world)
        let record = try await world.rescindConsent(app: app, customer: customer)
        let preorder = try await world.preorderMs(CustomerKey(bundleId: app.bundleId, customer: customer))
        return try sign(record, app: app, nowMs: await world.nowMs(), preorderMs: preorder)
    }

    /// The app transaction as Apple's verifier decodes it, dated `nowMs`: a fresh `nonce` each time
    /// (from the store's `UUIDSource`), and `deviceVerification` computed from it and the
    /// customer's device verification ID.
    static func appTransactionPayload(_ record: AppTransactionRecord, app: StoreApp, nowMs now: Int64, nonce: String, preorderMs: Int64? = nil) -> AppTransactionPayload {
        let device = DeviceVerification.identifier(world: record.world, customer: record.customer)
        return AppTransactionPayload(
            receiptType: app.environment, appAppleId: app.appAppleId, bundleId: app.bundleId,
            applicationVersion: record.applicationVersion, receiptCreationDate: now, requestDate: now,
            originalPurchaseDate: record.originalPurchaseMs, originalApplicationVersion: record.originalApplicationVersion,
            deviceVerification: DeviceVerification.value(nonce: nonce, deviceId: device),
            deviceVerificationNonce: nonce, preorderDate: preorderMs, appTransactionId: record.appTransactionId,
            originalPlatform: PurchasePlatform(rawValue: record.originalPlatform) ?? .iOS, signedDate: now)
    }
}

extension World {
    func rescindConsent(app: StoreApp, customer: String) async throws -> AppTransactionRecord {
        try await catchUp()
        let key = CustomerKey(bundleId: app.bundleId, customer: customer)
        var record = appTransactions[key]
        if record == nil { record = try await env.database.appTransaction(world: id, bundleId: app.bundleId, customer: customer) }
        guard let record else {
            throw StoreError.customerNotFound("\(customer) has no copy of \(app.bundleId) in world \(id), so no consent to rescind")
        }
        appTransactions[key] = record
        var batch = WriteBatch()
        emit(.rescindConsent, key: key, transactionId: nil, atMs: nowMs(), in: &batch)
        try await commit(batch)
        return record
    }
}
