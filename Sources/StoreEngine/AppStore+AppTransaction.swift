import Foundation
import StoreModel
import StoreSigning
import StoreStorage

/// What a customer may change about their copy of an app, to reproduce cases such as WWDC22's
/// Food Truck: a customer who bought paid version 2.5 keeps premium content after the app went free.
public struct AppTransactionChange: Sendable {
    /// The app version the customer first got (`originalApplicationVersion`); nil leaves it as it is.
    public var originalApplicationVersion: String?
    /// When the customer first got the app, in ms (`originalPurchaseDate`); nil leaves it as it is.
    public var originalPurchaseDate: Int64?
    /// The app version now installed (`applicationVersion`); nil leaves it as it is.
    public var applicationVersion: String?
    /// `preorderDate` in ms for a customer who pre-ordered the app; 0 clears it.
    public var preorderDate: Int64?
    /// A change of the fields given; the others stay as they are.
    public init(originalApplicationVersion: String? = nil, originalPurchaseDate: Int64? = nil, applicationVersion: String? = nil,
                preorderDate: Int64? = nil) {
        self.originalApplicationVersion = originalApplicationVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.applicationVersion = applicationVersion
        self.preorderDate = preorderDate
    }
}

extension AppStore {
    func appTransaction(bundleId: String, customer: String, world: String) async throws -> Signed<AppTransactionPayload> {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(world)
        let record = try await world.appTransaction(app: app, customer: customer, change: nil)
        let preorder = try await world.preorderMs(CustomerKey(bundleId: app.bundleId, customer: customer))
        return try sign(record, app: app, nowMs: await world.nowMs(), preorderMs: preorder)
    }

    func deviceVerificationID(customer: String, world: String) async throws -> String {
        _ = try await self.loadedWorld(world)
        return DeviceVerification.identifier(world: world, customer: customer)
    }

    func updateAppTransaction(bundleId: String, customer: String, change: AppTransactionChange, world: String) async throws -> Signed<AppTransactionPayload> {
        let app = try app(bundleId)
        for version in [change.originalApplicationVersion, change.applicationVersion].compactMap({ $0 }) {
            guard !version.isEmpty, version.unicodeScalars.count <= 64 else {
                throw StoreError.malformedRequest("an application version must be 1–64 characters")
            }
        }
        let world = try await self.loadedWorld(world)
        let record = try await world.appTransaction(app: app, customer: customer, change: change)
        let preorder = try await world.preorderMs(CustomerKey(bundleId: app.bundleId, customer: customer))
        return try sign(record, app: app, nowMs: await world.nowMs(), preorderMs: preorder)
    }

    func sign(_ record: AppTransactionRecord, app: StoreApp, nowMs now: Int64, preorderMs: Int64? = nil) throws -> Signed<AppTransactionPayload> {
        let payload = Self.appTransactionPayload(record, app: app, nowMs: now, nonce: worlds.env.identifiers.uuid(), preorderMs: preorderMs)
        return Signed(jws: signer.sign(payloadJSON: payload.jsonBytes), payload: payload)
    }
}

extension World {
    func appTransaction(app: StoreApp, customer: String, change: AppTransactionChange?) async throws -> AppTransactionRecord {
        var batch = WriteBatch()
        _ = try await customerCreatingIfNeeded(customer, app: app, batch: &batch)
        let key = CustomerKey(bundleId: app.bundleId, customer: customer)
        var record = try await appTransactionCreatingIfNeeded(key, batch: &batch)
        if let change {
            if let version = change.originalApplicationVersion { record.originalApplicationVersion = version }
            if let version = change.applicationVersion { record.applicationVersion = version }
            if let date = change.originalPurchaseDate { record.originalPurchaseMs = date }
            if let preorder = change.preorderDate { try await setPreorder(preorder, key: key, record: record, batch: &batch) }
            appTransactions[key] = record
            batch.appTransactions.removeAll { $0.customer == customer && $0.bundleId == app.bundleId }
            batch.appTransactions.append(record)
        }
        try await commit(batch)
        return record
    }
}
