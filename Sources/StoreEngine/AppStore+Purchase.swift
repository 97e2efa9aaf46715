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
    /// `simulatesAskToBuyInSandbox`: outside Production, true makes this purchase wait for
    /// approval and false skips Ask to Buy, whatever the world's switch says.
    public var simulatesAskToBuy: Bool?
    /// `Product.PurchaseOption.billingPlanType(_:)`: `MONTHLY` buys the product's "monthly with
    /// a 12-month commitment" plan; nil or `BILLED_UPFRONT` the standard up-front plan.
    public var billingPlanType: String? = nil
    /// StoreKit 1's `SKPayment.applicationUsername`: a UUID becomes the `appAccountToken` when no
    /// token was given (`Rules/ApplicationUsername.swift`); any other value sets nothing.
    public var applicationUsername: String? = nil

    public init(world: String = AppStore.defaultWorld, bundleId: String, productId: String, customer: String, quantity: Int = 1,
                appAccountToken: String? = nil, simulatesAskToBuy: Bool? = nil) {
        self.world = world
        self.bundleId = bundleId
        self.productId = productId
        self.customer = customer
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.simulatesAskToBuy = simulatesAskToBuy
    }
}

/// A signed payload together with what it says, so callers need not decode their own JWS.
public struct Signed<Payload: Sendable>: Sendable {
    public var jws: String
    public var payload: Payload
    /// The payload's JSON exactly as signed, when the signer kept it: an answer splices these
    /// bytes instead of encoding the payload again.
    public var payloadJSON: [UInt8]? = nil
}

public struct PurchaseOutcome: Sendable {
    /// `purchased`, or `pending` (Ask to Buy) / `interrupted` (a purchase issue) until the
    /// Transaction Manager resolves it, as `Product.PurchaseResult.pending`.
    public var status: String
    /// The new transaction, or for a downgrade the current one (the change waits for the renewal).
    public var transaction: Signed<TransactionPayload>?
    /// Present for auto-renewable subscriptions.
    public var renewalInfo: Signed<RenewalInfoPayload>?
    /// Identifies a pending purchase for approve/decline/resolve.
    public var pendingId: String?
    /// The world's Transaction Manager simulates a verification failure (read when the purchase
    /// was decided): the device API corrupts the JWS, as `simulatesVerificationFailure` says.
    public var simulatesVerificationFailure = false
}

extension AppStore {
    /// Sells a product. The transaction is durable before this returns, and signed with the store's chain.
    public func purchase(_ request: PurchaseRequest) async throws -> PurchaseOutcome {
        let world = try await world(request.world)
        let result = try await world.purchase(request)
        return try await outcome(result, world: world)
    }

    /// Signs what the world decided, dated now (after the commit, as before). A transaction made
    /// by the decision is signed from the bytes the world stored when the clock has not moved
    /// since (nothing parsed or encoded again), else from its payload value with the new
    /// `signedDate` (one encode, no parse); a transaction read back (a downgrade answers with
    /// the current one) is signed afresh. The clock is read without entering the world.
    func outcome(_ result: WorldPurchase, world: World) async throws -> PurchaseOutcome {
        var now: Int64
        if let clock = result.clock { now = clock.worldMs(atReal: worlds.env.realNowMs()) } else { now = await world.nowMs() }
        var record = result.transaction
        if record == nil, let chain = result.chain {
            record = try await world.transactionRecord(chain.latestTransactionId)
        }
        var transaction: Signed<TransactionPayload>?
        if let record {
            if var payload = result.payload, payload.transactionId == String(record.id) {
                let json: [UInt8]
                if payload.signedDate == now {
                    json = Array(record.payload.utf8)
                } else {
                    payload.signedDate = now
                    json = payload.jsonBytes
                }
                let signed = Signed(jws: signer.sign(payloadJSON: json), payload: payload, payloadJSON: json)
                signatures.store(id: record.id, seq: record.seq, signed)
                transaction = signed
            } else {
                transaction = try sign(record, nowMs: now)
            }
        }
        var verificationFails: Bool
        if let decided = result.simulatesVerificationFailure {
            verificationFails = decided
        } else {
            verificationFails = await world.settings.simulatedErrors["Verification"] != nil
        }
        return PurchaseOutcome(
            status: result.status.rawValue,
            transaction: transaction,
            renewalInfo: try result.chain.map { try signRenewalInfo($0, nowMs: now) },
            pendingId: result.pendingId,
            simulatesVerificationFailure: verificationFails)
    }
}
