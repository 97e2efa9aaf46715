import Foundation
import StoreModel
import StoreStorage

/// What a customer may change about their copy of an app, to reproduce cases such as WWDC22's
/// Food Truck: a customer who bought paid version 2.5 keeps premium content after the app went free.
public struct AppTransactionChange: Sendable {
    public var originalApplicationVersion: String?
    public var originalPurchaseDate: Int64?
    public var applicationVersion: String?
    public init(originalApplicationVersion: String? = nil, originalPurchaseDate: Int64? = nil, applicationVersion: String? = nil) {
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.applicationVersion = applicationVersion
    }
}

extension AppStore {
    /// `AppTransaction.shared`: created the first time a customer's copy of the app asks for it.
    public func appTransaction(bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> Signed<AppTransactionPayload> {
        let app = try app(bundleId)
        _ = try await customerCreatingIfNeeded(customer, app: app, world: world)
        let found = try await appTransactionCreatingIfNeeded(.init(world: world, bundleId: app.bundleId, customer: customer), world: world)
        if found.isNew {
            try await database.write(WriteBatch(appTransactions: [found.record]))
        }
        return try sign(found.record, app: app, world: world)
    }

    public func updateAppTransaction(bundleId: String, customer: String, change: AppTransactionChange, world: String = AppStore.defaultWorld) async throws -> Signed<AppTransactionPayload> {
        let app = try app(bundleId)
        let customerRecord = try await customerCreatingIfNeeded(customer, app: app, world: world)
        var record = try await appTransactionCreatingIfNeeded(.init(world: world, bundleId: app.bundleId, customer: customer), world: world).record
        for version in [change.originalApplicationVersion, change.applicationVersion].compactMap({ $0 }) {
            guard !version.isEmpty, version.count <= 64 else {
                throw StoreError.malformedRequest("an application version must be 1–64 characters")
            }
        }
        if let version = change.originalApplicationVersion { record.originalApplicationVersion = version }
        if let version = change.applicationVersion { record.applicationVersion = version }
        if let date = change.originalPurchaseDate { record.originalPurchaseMs = date }
        var batch = WriteBatch(appTransactions: [record])
        if customerRecord.isNew { batch.customers.append(customerRecord.record) }
        try await database.write(batch)
        await ledger.setAppTransaction(record)
        return try sign(record, app: app, world: world)
    }

    func sign(_ record: AppTransactionRecord, app: StoreApp, world: String) throws -> Signed<AppTransactionPayload> {
        let now = nowMs(world)
        let payload = AppTransactionPayload(
            receiptType: app.environment, appAppleId: app.appAppleId, bundleId: app.bundleId,
            applicationVersion: record.applicationVersion, receiptCreationDate: now, requestDate: now,
            originalPurchaseDate: record.originalPurchaseMs, originalApplicationVersion: record.originalApplicationVersion,
            deviceVerificationNonce: UUID().uuidString.lowercased(), appTransactionId: record.appTransactionId,
            originalPlatform: PurchasePlatform(rawValue: record.originalPlatform) ?? .iOS, signedDate: now)
        return Signed(jws: try signer.sign(payload), payload: payload)
    }
}
