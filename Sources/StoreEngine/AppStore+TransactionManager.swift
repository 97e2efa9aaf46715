import Foundation
import StoreModel
import StoreStorage

/// The state of one subscription as `Product.SubscriptionInfo.Status` and the Server API's
/// Get All Subscription Statuses report it.
public struct SubscriptionStatusItem: Sendable {
    /// The subscription group.
    public var groupId: String
    /// Status 1–5: active, expired, billing retry, billing grace period, revoked.
    public var status: SubscriptionStatus
    /// The subscription's original transaction ID.
    public var originalTransactionId: String
    /// The subscription's latest transaction, signed.
    public var transaction: Signed<TransactionPayload>
    /// The subscription's renewal info, signed.
    public var renewalInfo: Signed<RenewalInfoPayload>
}

/// The Transaction Manager's switches, after `SKTestSession`'s properties. Nil leaves a switch as it is.
public struct SessionSwitches: Codable, Sendable {
    /// `askToBuyEnabled`: purchases wait for a parent's approval.
    public var askToBuy: Bool?
    /// `shouldEnterBillingRetryOnRenewal`: renewals fail and enter billing retry.
    public var failRenewals: Bool?
    /// `billingGracePeriodIsEnabled`: a failed renewal keeps access through the grace period.
    public var billingGracePeriod: Bool?
    /// `interruptedPurchasesEnabled`: purchases stop at an issue until it is resolved.
    public var interruptedPurchases: Bool?
    /// `failTransactionsEnabled` (deprecated by Apple): every purchase fails with `failureError`.
    public var failTransactions: Bool?
    /// `failureError`, as a Purchase error name (`SessionSwitches.failureErrors`).
    public var failureError: String?
    /// Stops a subscription after this many renewals, like the sandbox's cap; 0 or less removes the cap.
    public var renewalLimit: Int?
    /// What `failureError` may be: the `SKError.Code`s Apple accepts (`.unknown`,
    /// `.invalidOfferIdentifier`, `.invalidSignature`, `.missingOfferParams`, `.invalidOfferPrice`),
    /// by their StoreKit 2 names.
    public static let failureErrors = ["unknown", "invalidOfferIdentifier", "invalidOfferSignature", "missingOfferParameters", "invalidOfferPrice"]
    /// Switches to change; every one left nil stays as it is.
    public init(askToBuy: Bool? = nil, failRenewals: Bool? = nil, billingGracePeriod: Bool? = nil, interruptedPurchases: Bool? = nil,
                failTransactions: Bool? = nil, failureError: String? = nil, renewalLimit: Int? = nil) {
        self.askToBuy = askToBuy
        self.failRenewals = failRenewals
        self.billingGracePeriod = billingGracePeriod
        self.interruptedPurchases = interruptedPurchases
        self.failTransactions = failTransactions
        self.failureError = failureError
        self.renewalLimit = renewalLimit
    }
}

extension AppStore {
    /// The nine StoreKit APIs `_storeKitErrors` names, which `setSimulatedError` can make fail.
    public static let failableAPIs = [
        "Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status",
        "App Transaction", "Manage Subscriptions Sheet", "Refund Request Sheet", "Offer Code Redeem Sheet",
    ]

    func setSwitches(_ switches: SessionSwitches, world: String) async throws -> WorldInfo {
        if let error = switches.failureError, !SessionSwitches.failureErrors.contains(error) {
            throw StoreError.malformedRequest("failureError \"\(error)\" is not one of \(SessionSwitches.failureErrors.joined(separator: ", "))")
        }
        let world = try await self.loadedWorld(world)
        try await world.updateSettings { settings in
            if let value = switches.askToBuy { settings.askToBuy = value }
            if let value = switches.failRenewals { settings.failRenewals = value }
            if let value = switches.billingGracePeriod { settings.billingGracePeriod = value }
            if let value = switches.interruptedPurchases { settings.interruptedPurchases = value }
            if let value = switches.failTransactions { settings.failTransactions = value }
            if let value = switches.failureError { settings.failureError = value == "unknown" ? nil : value }
            if let value = switches.renewalLimit { settings.renewalLimit = value > 0 ? value : nil }
        }
        return await world.info()
    }

    func setSimulatedError(api: String, error: String?, world: String) async throws -> WorldInfo {
        guard let name = Self.failableAPIs.first(where: { $0.lowercased() == api.lowercased() }) else {
            throw StoreError.notFound("unknown StoreKit API \"\(api)\"; one of: \(Self.failableAPIs.joined(separator: ", "))")
        }
        let allowed = FailableAPIErrors.errors(for: name)
        if let error, !allowed.contains(error) {
            throw StoreError.unprocessable("\(name) cannot fail with \"\(error)\"; one of: \(allowed.joined(separator: ", "))")
        }
        let world = try await self.loadedWorld(world)
        try await world.updateSettings { $0.simulatedErrors[name] = error }
        return await world.info()
    }

    func checkSimulatedError(_ api: String, world: String) async throws {
        if let error = try await self.loadedWorld(world).settings.simulatedErrors[api] {
            throw StoreError.simulated(api: api, error: error)
        }
    }

    func setAutoRenew(transactionId: String, enabled: Bool, world: String) async throws -> Signed<RenewalInfoPayload> {
        let world = try await self.loadedWorld(world)
        let chain = try await world.setAutoRenew(transactionId: try Self.transactionId(transactionId), enabled: enabled)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    func expireSubscription(transactionId: String, world: String) async throws -> Signed<RenewalInfoPayload> {
        let world = try await self.loadedWorld(world)
        let chain = try await world.expireNow(transactionId: try Self.transactionId(transactionId))
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    func forceRenewal(transactionId: String, world: String) async throws -> PurchaseOutcome {
        let world = try await self.loadedWorld(world)
        let chain = try await world.forceRenewal(transactionId: try Self.transactionId(transactionId))
        return try await outcome(WorldPurchase(status: .purchased, transaction: nil, chain: chain), world: world)
    }

    func resolveIssue(_ id: String, world: String) async throws -> PurchaseOutcome {
        let world = try await self.loadedWorld(world)
        return try await outcome(try await world.resolveIssue(transactionOrPendingId: id), world: world)
    }

    func pendingPurchases(world: String) async throws -> [PendingPurchase] {
        try await self.loadedWorld(world).pendingPurchases()
    }

    func answerAskToBuy(_ id: String, approve: Bool, world: String) async throws -> PurchaseOutcome? {
        let world = try await self.loadedWorld(world)
        guard let result = try await world.answerAskToBuy(id, approve: approve) else { return nil }
        return try await outcome(result, world: world)
    }

    func refund(transactionId: String, reason: RevocationReason = .otherReason, world: String) async throws -> Signed<TransactionPayload> {
        let world = try await self.loadedWorld(world)
        let record = try await world.refund(transactionId: try Self.transactionId(transactionId), reason: reason)
        return try sign(record, nowMs: await world.nowMs())
    }

    func deleteTransaction(transactionId: String, world: String) async throws {
        try await self.loadedWorld(world).deleteTransaction(try Self.transactionId(transactionId))
    }

    func clearTransactions(bundleId: String, customer: String? = nil, world: String) async throws {
        let app = try app(bundleId)
        try await self.loadedWorld(world).clearTransactions(bundleId: app.bundleId, customer: customer)
    }

    func subscriptionStatuses(bundleId: String, customer: String, world: String) async throws -> [SubscriptionStatusItem] {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(world)
        var held: [(chain: SubscriptionChain, latest: TransactionRecord?)] = []
        for chain in try await world.chains(bundleId: app.bundleId, customer: customer) {
            held.append((chain, try await world.transactionRecord(chain.latestTransactionId)))
        }
        for shared in try await world.familySharedChains(bundleId: app.bundleId, customer: customer) {
            held.append((shared.chain, shared.latest))
        }
        let now = await world.nowMs()
        var items: [SubscriptionStatusItem] = []
        for (chain, record) in held {
            guard let record else { continue }
            items.append(SubscriptionStatusItem(
                groupId: chain.groupId, status: chain.status, originalTransactionId: String(chain.originalTransactionId),
                transaction: try sign(record, nowMs: now), renewalInfo: try signRenewalInfo(chain, nowMs: now)))
        }
        return items
    }

    func events(world: String, after seq: Int64 = 0, limit: Int = 1000) async throws -> [StoreEvent] {
        let world = try await self.loadedWorld(world)
        try await world.catchUp()
        return try await database.events(world: world.id, afterSeq: seq, limit: limit).map(StoreEvent.init)
    }

    static func transactionId(_ text: String) throws(StoreError) -> Int64 {
        guard let id = Int64(text), id > 0 else { throw .transactionNotFound("\"\(text)\" is not a transaction ID") }
        return id
    }
}

extension World {
    func chains(bundleId: String, customer: String) async throws -> [SubscriptionChain] {
        try await catchUp()
        _ = try await history(CustomerKey(bundleId: bundleId, customer: customer))
        return chains.values.filter { $0.bundleId == bundleId && $0.customer == customer }
            .sorted { $0.originalTransactionId < $1.originalTransactionId }
    }
}

extension AppStore {
    func simulatesVerificationFailure(world: String) async throws -> Bool {
        try await self.loadedWorld(world).settings.simulatedErrors["Verification"] != nil
    }
}
