import Foundation
import StoreModel
import StoreStorage

/// A purchase as a device asks for it.
public struct PurchaseRequest: Sendable {
    /// Set by the world handle that sells it (`StoreWorld.purchase`).
    var world = ""
    /// The app the purchase is made in.
    public var bundleId: String
    /// The product to buy.
    public var productId: String
    /// The store customer buying.
    public var customer: String
    /// How many to buy; more than one only for consumables.
    public var quantity: Int
    /// `Product.PurchaseOption.appAccountToken(_:)`: the app's UUID for the customer, copied into the transaction.
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
    /// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`: the developer's signed
    /// verdict, checked with the app's In-App Purchase key before the purchase
    /// (`World.purchaseWithIntroductoryEligibility`).
    public var introductoryOfferEligibilityJWS: String? = nil
    /// The verified verdict: true applies the product's introductory offer, false none; nil
    /// leaves it to Apple's rule (never subscribed in the group).
    var introductoryOfferAllowed: Bool? = nil
    /// StoreKitTest's `.purchaseDate(_:renewalBehavior:)`: the purchase is dated then (now or
    /// earlier; never in Production), and a subscription's renewals up to now are applied
    /// before the answer, as the testing environment generates them.
    public var purchaseDateMs: Int64? = nil
    /// `.cancelImmediately`: the subscription bought has auto-renew off, so it has one period.
    public var cancelsAfterFirstPeriod = false

    /// A request for `quantity` of a product; the other options are set on the value afterwards.
    public init(bundleId: String, productId: String, customer: String, quantity: Int = 1,
                appAccountToken: String? = nil, simulatesAskToBuy: Bool? = nil) {
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
    /// The compact JWS, as it goes on the wire.
    public var jws: String
    /// The decoded payload the JWS carries.
    public var payload: Payload
    /// The payload's JSON exactly as signed, when the signer kept it: an answer splices these
    /// bytes instead of encoding the payload again.
    public var payloadJSON: [UInt8]? = nil
}

/// What a purchase came to, as the device API answers it.
public struct PurchaseOutcome: Sendable {
    /// `purchased`, or `pending` (Ask to Buy) / `interrupted` (a purchase issue) until the
    /// Transaction Manager resolves it, as `Product.PurchaseResult.pending`.
    public var status: PurchaseStatus
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
    /// The answer to what the world decided. A purchase's transaction and renewal info were
    /// signed in the decision's turn from the bytes the batch stored (`World.sign`); they are
    /// used as they are unless the commit took so long on the world's clock that a read would
    /// no longer reuse them (half the signature cache's window), in which case they are signed
    /// afresh, dated now. A transaction read back (a downgrade answers with the current one) is
    /// signed afresh. The clock is read without entering the world.
    func outcome(_ result: WorldPurchase, world: World) async throws -> PurchaseOutcome {
        var now: Int64
        if let clock = result.clock { now = clock.worldMs(atReal: worlds.env.realNowMs()) } else { now = await world.nowMs() }
        var record = result.transaction
        if record == nil, let chain = result.chain {
            record = try await world.transactionRecord(chain.latestTransactionId)
        }
        let fresh = { (signedMs: Int64) in now - signedMs <= self.signatures.maxAgeMs / 2 }
        var transaction: Signed<TransactionPayload>?
        if let record {
            if let signed = result.signedTransaction, signed.payload.transactionId == String(record.id), fresh(signed.payload.signedDate) {
                transaction = signed
            } else if var payload = result.payload, payload.transactionId == String(record.id) {
                payload.signedDate = now
                let json = payload.jsonBytes
                transaction = Signed(jws: signer.sign(payloadJSON: json), payload: payload, payloadJSON: json)
            }
            if let transaction {
                signatures.store(id: record.id, seq: record.seq, transaction)
            } else {
                transaction = try sign(record, nowMs: now)  // read back; `sign` keeps what it signs
            }
        }
        var renewalInfo = result.signedRenewalInfo
        if let signed = renewalInfo, !fresh(signed.payload.signedDate) { renewalInfo = nil }
        if renewalInfo == nil, let chain = result.chain { renewalInfo = try signRenewalInfo(chain, nowMs: now) }
        var verificationFails: Bool
        if let decided = result.simulatesVerificationFailure {
            verificationFails = decided
        } else {
            verificationFails = await world.settings.simulatedErrors["Verification"] != nil
        }
        return PurchaseOutcome(
            status: result.status,
            transaction: transaction,
            renewalInfo: renewalInfo,
            pendingId: result.pendingId,
            simulatesVerificationFailure: verificationFails)
    }
}
