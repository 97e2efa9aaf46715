import Foundation
import StoreModel
import StoreStorage

/// A purchase as a device asks for it.
public struct PurchaseRequest: Sendable {
    public var world: String
    public var bundleId: String
    public var productId: String
    public var customer: String
    public var quantity: Int
    public var appAccountToken: String?

    public init(world: String = AppStore.defaultWorld, bundleId: String, productId: String, customer: String, quantity: Int = 1, appAccountToken: String? = nil) {
        self.world = world
        self.bundleId = bundleId
        self.productId = productId
        self.customer = customer
        self.quantity = quantity
        self.appAccountToken = appAccountToken
    }
}

/// A signed payload together with what it says, so callers need not decode their own JWS.
public struct Signed<Payload: Sendable>: Sendable {
    public var jws: String
    public var payload: Payload
}

public struct PurchaseOutcome: Sendable {
    public var transaction: Signed<TransactionPayload>
    /// Present for auto-renewable subscriptions.
    public var renewalInfo: Signed<RenewalInfoPayload>?
}

extension AppStore {
    /// Sells a product. The transaction is durable before this returns, and signed with the store's chain.
    public func purchase(_ request: PurchaseRequest) async throws -> PurchaseOutcome {
        let app = try app(request.bundleId)
        guard let product = app.catalog.product(request.productId) else {
            throw StoreError.productUnavailable("\(request.productId) is not a product of \(app.bundleId)")
        }
        try PurchaseRules.checkQuantity(request.quantity, for: product)
        let token = try PurchaseRules.appAccountToken(request.appAccountToken)
        let world = request.world
        let customer = try await customerCreatingIfNeeded(request.customer, app: app, world: world)
        let storefront = try storefront(customer.record.storefront)
        let key = CustomerLedger.Key(world: world, bundleId: app.bundleId, customer: request.customer)
        let appTransaction = try await appTransactionCreatingIfNeeded(key, world: world)
        let now = nowMs(world)

        let (payload, seq) = try await ledger.record(key, identifiers: 1) { history, ids in
            try PurchaseRules.checkNotOwned(product, history: history, nowMs: now)
            let offer = OfferEligibility.introductoryOffer(for: product, history: history)
            let purchase = TransactionFactory.Purchase(
                app: app, product: product, storefront: storefront, quantity: request.quantity,
                appAccountToken: token, offer: offer, purchaseMs: now)
            let payload = TransactionFactory.firstPurchase(
                purchase, ids: .init(transactionId: ids[0].id, appTransactionId: appTransaction.record.appTransactionId))
            let owned = OwnedTransaction(
                id: ids[0].id, originalId: ids[0].id, productId: product.id, kind: product.kind,
                groupId: product.subscription?.groupID, purchaseMs: now, expiresMs: payload.expiresDate,
                revokedMs: nil, finished: false)
            return ((payload, ids[0].seq), [owned])
        }

        let json = try PayloadCoding.encoder.encode(payload)
        var batch = WriteBatch(transactions: [TransactionRecord(
            id: Int64(payload.transactionId) ?? 0, world: world, seq: seq, originalId: Int64(payload.originalTransactionId) ?? 0,
            bundleId: app.bundleId, customer: request.customer, productId: product.id, productKind: product.kind.rawValue,
            groupId: product.subscription?.groupID, purchaseMs: now, expiresMs: payload.expiresDate, revokedMs: nil,
            finished: false, orderId: OrderID.make(seq), ownership: payload.inAppOwnershipType.rawValue,
            payload: String(decoding: json, as: UTF8.self))])
        if customer.isNew { batch.customers.append(customer.record) }
        if appTransaction.isNew { batch.appTransactions.append(appTransaction.record) }

        var renewal: RenewalState?
        if let subscription = product.subscription {
            let state = RenewalState.afterFirstPurchase(payload, regularPriceMilliunits: storefront.milliunits(product.price))
            renewal = state
            batch.subscriptions.append(SubscriptionRecord(
                world: world, originalId: Int64(payload.originalTransactionId) ?? 0, bundleId: app.bundleId,
                customer: request.customer, groupId: subscription.groupID, productId: product.id,
                state: String(decoding: try PayloadCoding.encoder.encode(state), as: UTF8.self), updatedMs: now))
        }

        do {
            try await database.write(batch)
        } catch {
            await ledger.forget(key, transactionIds: [Int64(payload.transactionId) ?? 0])
            throw error
        }

        let signedTransaction = Signed(jws: signer.sign(payloadJSON: json), payload: payload)
        var signedRenewal: Signed<RenewalInfoPayload>?
        if let renewal {
            let info = renewal.renewalInfo(originalTransactionId: payload.originalTransactionId, environment: app.environment, nowMs: now)
            signedRenewal = Signed(jws: try signer.sign(info), payload: info)
        }
        return PurchaseOutcome(transaction: signedTransaction, renewalInfo: signedRenewal)
    }
}
