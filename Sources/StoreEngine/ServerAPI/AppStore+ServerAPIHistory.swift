import Foundation
import StoreModel
import StoreStorage

extension AppStore {
    /// Apple's page size for history and refund history.
    public static let serverAPIPageSize = 20

    /// Get Transaction History (v1 and v2). Sorted by modification (the change sequence); the
    /// revision resumes after the last page's end, so a transaction changed since shows up again.
    public func transactionHistory(
        anyTransactionId: String, request: TransactionHistoryRequest, version: TransactionHistoryVersion,
        caller: ServerAPICaller
    ) async throws -> HistoryResponse {
        let app = try serverAPIApp(caller)
        let number = try TransactionNumber.parse(anyTransactionId)
        let descending = request.descending
        let parsedCursor = Result { () throws(ServerAPIError) -> Int64? in
            try request.revision.map { token throws(ServerAPIError) in try RevisionToken.parseHistory(token, descending: descending) }
        }
        let pageSize = Self.serverAPIPageSize
        func query(customer: String, cursor: Int64?) -> TransactionPageQuery {
            TransactionPageQuery(
                world: caller.world, bundleId: app.bundleId, customer: customer, afterSeq: cursor,
                descending: descending, productIds: request.productIds,
                productKinds: request.productTypes.map(\.rawValue), groupIds: request.subscriptionGroupIdentifiers,
                startMs: request.startDate, endMs: request.endDate, ownership: request.inAppOwnershipType?.rawValue,
                revoked: request.revoked, excludeFinishedConsumables: version == .v1, limit: pageSize + 1)
        }
        func response(last: Int64?, cursor: Int64?, hasMore: Bool, signed: [String]) -> HistoryResponse {
            let end = last ?? cursor ?? (descending ? Int64.max : 0)
            return HistoryResponse(
                revision: RevisionToken.history(seq: end, descending: descending), hasMore: hasMore,
                bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.environment.rawValue,
                signedTransactions: signed)
        }
        // A page read again while its revisions' signatures are fresh is one read of the index's
        // change numbers (the owner found in the same statement) plus a copy of each JWS: no row,
        // no payload, no signature.
        if case .success(let cursor) = parsedCursor {
            let seqs = try await database.transactionPageSeqs(openedBy: number, query(customer: "", cursor: cursor))
            let pageSeqs = seqs.prefix(pageSize)
            if !pageSeqs.isEmpty, let copied = signatures.jwsOfAll(seqs: pageSeqs, nowMs: try await nowMs(caller.world)) {
                return response(last: pageSeqs.last, cursor: cursor, hasMore: seqs.count > pageSize, signed: copied)
            }
        }
        // Otherwise, with the checks in their usual order (whose history: any transaction or app
        // transaction ID; then the revision), the rows (one read, so the page is one snapshot),
        // each signed as of now.
        let owner = try await serverAPIOwner(anyTransactionId: anyTransactionId, caller: caller)
        let cursor = try parsedCursor.get()
        let rows = try await database.transactionPage(query(customer: owner.customer, cursor: cursor))
        let page = rows.prefix(pageSize)
        let now = try await nowMs(caller.world)
        return response(last: page.last?.seq, cursor: cursor, hasMore: rows.count > pageSize, signed: try page.map { try sign($0, nowMs: now).jws })
    }

    /// Get Refund History: the customer's revoked transactions, ascending by revocation date.
    public func refundHistory(anyTransactionId: String, revision: String?, caller: ServerAPICaller) async throws -> RefundHistoryResponse {
        let owner = try await serverAPIOwner(anyTransactionId: anyTransactionId, caller: caller)
        let cursor = try revision.map { token throws(ServerAPIError) in try RevisionToken.parseRefunds(token) }
        let pageSize = Self.serverAPIPageSize
        let rows = try await database.revokedTransactionPage(
            world: caller.world, bundleId: owner.app.bundleId, customer: owner.customer, after: cursor, limit: pageSize + 1)
        let page = rows.prefix(pageSize)
        let end = page.last.map { (revokedMs: $0.revokedMs ?? 0, id: $0.id) } ?? cursor ?? (revokedMs: Int64.min, id: 0)
        let now = try await nowMs(caller.world)
        return RefundHistoryResponse(
            signedTransactions: try page.map { try sign($0, nowMs: now).jws },
            revision: RevisionToken.refunds(revokedMs: end.revokedMs, id: end.id), hasMore: rows.count > pageSize)
    }

    /// The app of the caller, or `APP_NOT_FOUND` when the key's bundle ID is not served here.
    func serverAPIApp(_ caller: ServerAPICaller) throws(ServerAPIError) -> StoreApp {
        do {
            return try app(caller.bundleId)
        } catch {
            throw .appNotFound
        }
    }

    /// Whose history an ID opens: any `transactionId`, `originalTransactionId` or
    /// `appTransactionId` of a customer, in the caller's app and world.
    func serverAPIOwner(anyTransactionId: String, caller: ServerAPICaller) async throws -> (app: StoreApp, customer: String) {
        let app = try serverAPIApp(caller)
        let number = try TransactionNumber.parse(anyTransactionId)
        if let record = try await database.transactionOwner(id: number), record.world == caller.world, record.bundleId == app.bundleId {
            return (app, record.customer)
        }
        if let copy = try await database.appTransaction(world: caller.world, appTransactionId: String(number)), copy.bundleId == app.bundleId {
            return (app, copy.customer)
        }
        throw ServerAPIError.transactionIdNotFound
    }

    /// A transaction by its `transactionId` for endpoints that take only that; an
    /// `appTransactionId` gets `APP_TRANSACTION_ID_NOT_SUPPORTED`.
    func serverAPITransaction(_ transactionId: String, caller: ServerAPICaller) async throws -> (app: StoreApp, record: TransactionRecord) {
        let app = try serverAPIApp(caller)
        let number = try TransactionNumber.parse(transactionId)
        if let record = try await database.transaction(id: number), record.world == caller.world, record.bundleId == app.bundleId {
            return (app, record)
        }
        if let copy = try await database.appTransaction(world: caller.world, appTransactionId: String(number)), copy.bundleId == app.bundleId {
            throw ServerAPIError.appTransactionIdNotSupported
        }
        throw ServerAPIError.transactionIdNotFound
    }
}
