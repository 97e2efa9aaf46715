import Foundation
import StoreModel
import StoreStorage

extension AppStore {
    /// Get Transaction Info.
    public func transactionInfo(transactionId: String, caller: ServerAPICaller) async throws -> TransactionInfoResponse {
        let found = try await serverAPITransaction(transactionId, caller: caller)
        return TransactionInfoResponse(signedTransactionInfo: try sign(found.record, nowMs: try await nowMs(caller.world)).jws)
    }

    /// Look Up Order ID: the transactions of an order on the customer's invoice; status 1 when
    /// no order with that ID exists for the app.
    public func lookUpOrder(orderId: String, caller: ServerAPICaller) async throws -> OrderLookupResponse {
        let app = try serverAPIApp(caller)
        guard !orderId.isEmpty, orderId.count <= 64 else { return OrderLookupResponse(status: 1, signedTransactions: []) }
        let records = try await database.transactions(world: caller.world, orderId: orderId).filter { $0.bundleId == app.bundleId }
        guard !records.isEmpty else { return OrderLookupResponse(status: 1, signedTransactions: []) }
        let now = try await nowMs(caller.world)
        return OrderLookupResponse(status: 0, signedTransactions: try records.map { try sign($0, nowMs: now).jws })
    }

    /// Get App Transaction Info: the customer's `AppTransaction`, found by any of their IDs.
    public func appTransactionInfo(anyTransactionId: String, caller: ServerAPICaller) async throws -> AppTransactionInfoResponse {
        let owner = try await serverAPIOwner(anyTransactionId: anyTransactionId, caller: caller)
        guard try await database.appTransaction(world: caller.world, bundleId: owner.app.bundleId, customer: owner.customer) != nil else {
            throw ServerAPIError.appTransactionDoesNotExist
        }
        let signed = try await appTransaction(bundleId: owner.app.bundleId, customer: owner.customer, world: caller.world)
        return AppTransactionInfoResponse(signedAppTransactionInfo: signed.jws)
    }

    /// Finish Transaction: the server tells the store the content was delivered.
    public func finishTransaction(transactionId: String, caller: ServerAPICaller) async throws {
        let found = try await serverAPITransaction(transactionId, caller: caller)
        try await finish(bundleId: found.app.bundleId, customer: found.record.customer, transactionId: String(found.record.id), world: caller.world)
    }

    /// Set App Account Token: puts `appAccountToken` (any case in, lowercase stored) on every
    /// transaction of an original transaction. Each change takes a new change number, so the
    /// transactions reappear in history after the last revision.
    public func setAppAccountToken(originalTransactionId: String, body: Data, caller: ServerAPICaller) async throws {
        guard let fields = JSONValue.object(from: body) else { throw ServerAPIError.invalidAppAccountTokenUUID }
        guard case .string(let text)? = fields["appAccountToken"], let uuid = UUID(uuidString: text) else {
            throw ServerAPIError.invalidAppAccountTokenUUID
        }
        let token = uuid.uuidString.lowercased()
        let found = try await serverAPITransaction(originalTransactionId, caller: caller)
        guard found.record.originalId == found.record.id else { throw ServerAPIError.transactionIdIsNotOriginalTransactionId }
        guard found.record.ownership != InAppOwnershipType.familyShared.rawValue else { throw ServerAPIError.familyTransactionNotSupported }
        let chain = try await database.transactions(originalId: found.record.id).filter { $0.world == caller.world }
        for record in chain {
            try await modifyTransaction(world: caller.world, id: record.id) { payload, _ in payload.appAccountToken = token }
        }
        // Renewals to come, and renewal info, carry the token too.
        try await loadedWorld(caller.world).setChainAppAccountToken(originalId: found.record.id, token: token)
    }
}
