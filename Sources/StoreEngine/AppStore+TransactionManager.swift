import Foundation
import StoreModel
import StoreStorage

/// The state of one subscription as `Product.SubscriptionInfo.Status` and the Server API's
/// Get All Subscription Statuses report it.
public struct SubscriptionStatusItem: Sendable {
    public var groupId: String
    public var status: SubscriptionStatus
    public var originalTransactionId: String
    public var transaction: Signed<TransactionPayload>
    public var renewalInfo: Signed<RenewalInfoPayload>
}

/// The Transaction Manager's switches, after `SKTestSession`'s properties. Nil leaves a switch as it is.
public struct SessionSwitches: Codable, Sendable {
    public var askToBuy: Bool?
    public var failRenewals: Bool?
    public var billingGracePeriod: Bool?
    public var interruptedPurchases: Bool?
    public var failTransactions: Bool?
    /// `failureError`, as a Purchase error name (`SessionSwitches.failureErrors`).
    public var failureError: String?
    public var renewalLimit: Int?
    /// What `failureError` may be: the `SKError.Code`s Apple accepts (`.unknown`,
    /// `.invalidOfferIdentifier`, `.invalidSignature`, `.missingOfferParams`, `.invalidOfferPrice`),
    /// by their StoreKit 2 names.
    public static let failureErrors = ["unknown", "invalidOfferIdentifier", "invalidOfferSignature", "missingOfferParameters", "invalidOfferPrice"]
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

    public func setSwitches(_ switches: SessionSwitches, world: String = AppStore.defaultWorld) async throws -> WorldInfo {
        if let error = switches.failureError, !SessionSwitches.failureErrors.contains(error) {
            throw StoreError.malformedRequest("failureError \"\(error)\" is not one of \(SessionSwitches.failureErrors.joined(separator: ", "))")
        }
        let world = try await self.world(world)
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

    /// `setSimulatedError(_:forAPI:)`; a nil error clears it.
    public func setSimulatedError(api: String, error: String?, world: String = AppStore.defaultWorld) async throws -> WorldInfo {
        guard let name = Self.failableAPIs.first(where: { $0.lowercased() == api.lowercased() }) else {
            throw StoreError.malformedRequest("unknown StoreKit API \"\(api)\"; one of: \(Self.failableAPIs.joined(separator: ", "))")
        }
        let allowed = FailableAPIErrors.errors(for: name)
        if let error, !allowed.contains(error) {
            throw StoreError.malformedRequest("\(name) cannot fail with \"\(error)\"; one of: \(allowed.joined(separator: ", "))")
        }
        let world = try await self.world(world)
        try await world.updateSettings { $0.simulatedErrors[name] = error }
        return await world.info()
    }

    /// Throws the simulated error set for `api` in the world, if any.
    public func checkSimulatedError(_ api: String, world: String = AppStore.defaultWorld) async throws {
        if let error = try await self.world(world).settings.simulatedErrors[api] {
            throw StoreError.simulated(api: api, error: error)
        }
    }

    public func setAutoRenew(transactionId: String, enabled: Bool, world: String = AppStore.defaultWorld) async throws -> Signed<RenewalInfoPayload> {
        let world = try await self.world(world)
        let chain = try await world.setAutoRenew(transactionId: try Self.transactionId(transactionId), enabled: enabled)
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    public func expireSubscription(transactionId: String, world: String = AppStore.defaultWorld) async throws -> Signed<RenewalInfoPayload> {
        let world = try await self.world(world)
        let chain = try await world.expireNow(transactionId: try Self.transactionId(transactionId))
        return try signRenewalInfo(chain, nowMs: await world.nowMs())
    }

    public func forceRenewal(transactionId: String, world: String = AppStore.defaultWorld) async throws -> PurchaseOutcome {
        let world = try await self.world(world)
        let chain = try await world.forceRenewal(transactionId: try Self.transactionId(transactionId))
        return try await outcome(WorldPurchase(status: .purchased, transaction: nil, chain: chain), world: world)
    }

    public func resolveIssue(_ id: String, world: String = AppStore.defaultWorld) async throws -> PurchaseOutcome {
        let world = try await self.world(world)
        return try await outcome(try await world.resolveIssue(transactionOrPendingId: id), world: world)
    }

    public func pendingPurchases(world: String = AppStore.defaultWorld) async throws -> [PendingPurchase] {
        try await self.world(world).pendingPurchases()
    }

    /// Approves or declines an Ask to Buy request; an approved one returns the new transaction.
    public func answerAskToBuy(_ id: String, approve: Bool, world: String = AppStore.defaultWorld) async throws -> PurchaseOutcome? {
        let world = try await self.world(world)
        guard let result = try await world.answerAskToBuy(id, approve: approve) else { return nil }
        return try await outcome(result, world: world)
    }

    public func refund(transactionId: String, reason: RevocationReason = .otherReason, world: String = AppStore.defaultWorld) async throws -> Signed<TransactionPayload> {
        let world = try await self.world(world)
        let record = try await world.refund(transactionId: try Self.transactionId(transactionId), reason: reason)
        return try sign(record, nowMs: await world.nowMs())
    }

    /// Deletes a transaction (a subscription's: the whole subscription); see `World.deleteTransaction`.
    public func deleteTransaction(transactionId: String, world: String = AppStore.defaultWorld) async throws {
        try await self.world(world).deleteTransaction(try Self.transactionId(transactionId))
    }

    public func clearTransactions(bundleId: String, customer: String? = nil, world: String = AppStore.defaultWorld) async throws {
        let app = try app(bundleId)
        try await self.world(world).clearTransactions(bundleId: app.bundleId, customer: customer)
    }

    /// Every subscription group the customer has subscribed to in the app, with its status: the
    /// customer's own subscriptions, then those shared with them by their family (`FAMILY_SHARED`).
    public func subscriptionStatuses(bundleId: String, customer: String, world: String = AppStore.defaultWorld) async throws -> [SubscriptionStatusItem] {
        let app = try app(bundleId)
        let world = try await self.world(world)
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

    /// The world's App Store events in order (the seeds of server notifications).
    public func events(world: String = AppStore.defaultWorld, after seq: Int64 = 0, limit: Int = 1000) async throws -> [StoreEvent] {
        let world = try await self.world(world)
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
    /// Whether the world simulates the "Verification" failure: signed data handed to devices
    /// should then fail verification.
    public func simulatesVerificationFailure(world: String = AppStore.defaultWorld) async throws -> Bool {
        try await self.world(world).settings.simulatedErrors["Verification"] != nil
    }
}
