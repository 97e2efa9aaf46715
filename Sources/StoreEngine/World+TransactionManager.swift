import Foundation
import StoreModel
import StoreStorage

/// Xcode's Transaction Manager and `SKTestSession`, per world: the switches and per-transaction
/// actions a test uses to drive a purchase through every path of its life.
extension World {
    // MARK: Switches

    func updateSettings(_ change: (inout WorldSettings) -> Void) async throws {
        try await catchUp()
        change(&settings)
        try await saveSettings()
    }

    // MARK: Subscriptions

    /// The chain a transaction belongs to (any of its transaction IDs, or its original ID).
    func chain(containing transactionId: Int64) async throws -> SubscriptionChain {
        try await catchUp()
        if let chain = chains[transactionId] { return chain }
        guard let record = try await transactionRecord(transactionId) else {
            throw StoreError.transactionNotFound("no transaction \(transactionId) in world \(id)")
        }
        _ = try await history(CustomerKey(bundleId: record.bundleId, customer: record.customer))
        guard let chain = chains[record.originalId] else {
            throw StoreError.invalidAction("transaction \(transactionId) is not an auto-renewable subscription")
        }
        return chain
    }

    /// `enableAutoRenewForTransaction` / `disableAutoRenewForTransaction`.
    func setAutoRenew(transactionId: Int64, enabled: Bool) async throws -> SubscriptionChain {
        var chain = try await chain(containing: transactionId)
        if chain.commitment != nil { return try await setCommitmentAutoRenew(chain, enabled: enabled) }
        guard chain.autoRenewEnabled != enabled else { return chain }
        guard chain.state != .expired && chain.state != .revoked else {
            throw StoreError.invalidAction("the subscription has ended; buy it again to resubscribe")
        }
        var batch = WriteBatch()
        chain.autoRenewEnabled = enabled
        if enabled, chain.expirationIntent == .customerCancelled || chain.expirationIntent == .didNotConsentToPriceIncrease {
            chain.expirationIntent = nil
        }
        store(chain, in: &batch)
        emit(.didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled, chain: chain,
             key: key(of: chain), transactionId: chain.latestTransactionId, atMs: nowMs(), in: &batch)
        try await commit(batch)
        return chains[chain.originalTransactionId] ?? chain
    }

    /// `expireSubscription(productIdentifier:)`: the current period ends now.
    func expireNow(transactionId: Int64) async throws -> SubscriptionChain {
        let chain = try await chain(containing: transactionId)
        guard chain.state != .expired && chain.state != .revoked else { return chain }
        var batch = WriteBatch()
        let now = nowMs()
        if let latest = try await transactionRecord(chain.latestTransactionId), (latest.expiresMs ?? 0) > now {
            _ = try modify(latest, in: &batch) { payload, _ in payload.expiresDate = now }
        }
        var ended = chains[chain.originalTransactionId] ?? chain
        ended.expiresMs = min(ended.expiresMs, now)
        expire(ended, intent: .customerCancelled, subtype: .voluntary, at: now, in: &batch)
        try await commit(batch)
        return chains[chain.originalTransactionId] ?? chain
    }

    /// `forceRenewalOfSubscription`: "ends the previous subscription period and begins the next".
    func forceRenewal(transactionId: Int64) async throws -> SubscriptionChain {
        let chain = try await chain(containing: transactionId)
        guard let app = env.apps[chain.bundleId] else { throw StoreError.appNotFound(chain.bundleId) }
        guard chain.state != .expired && chain.state != .revoked else {
            throw StoreError.invalidAction("the subscription has ended; buy it again to resubscribe")
        }
        var batch = WriteBatch()
        let now = nowMs()
        if let latest = try await transactionRecord(chain.latestTransactionId), (latest.expiresMs ?? 0) > now {
            _ = try modify(latest, in: &batch) { payload, _ in payload.expiresDate = now }
        }
        var current = chains[chain.originalTransactionId] ?? chain
        current.expiresMs = now
        current.autoRenewEnabled = true
        try attemptRenewal(current, app: app, at: now, in: &batch)
        try await commit(batch)
        return chains[chain.originalTransactionId] ?? chain
    }

    /// `resolveIssueForTransaction`: ends a billing issue (the renewal goes through now) or
    /// completes an interrupted purchase.
    func resolveIssue(transactionOrPendingId id: String) async throws -> WorldPurchase {
        try await catchUp()
        if let pending = try await pendingPurchase(id) {
            guard pending.kind == .interrupted else {
                throw StoreError.invalidAction("\(id) waits for an Ask to Buy answer; approve or decline it")
            }
            return try await complete(pending)
        }
        guard let transactionId = Int64(id) else { throw StoreError.transactionNotFound("no transaction or pending purchase \(id)") }
        let chain = try await chain(containing: transactionId)
        guard chain.state == .gracePeriod || chain.state == .billingRetry, let app = env.apps[chain.bundleId] else {
            throw StoreError.invalidAction("transaction \(id) has no billing issue to resolve")
        }
        var batch = WriteBatch()
        try recover(chain, app: app, at: nowMs(), in: &batch)
        try await commit(batch)
        let recovered = chains[chain.originalTransactionId] ?? chain
        return WorldPurchase(status: .purchased, transaction: batch.transactions.last, chain: recovered)
    }

    // MARK: Ask to Buy and interrupted purchases

    func pendingPurchases() async throws -> [PendingPurchase] {
        try await env.database.worldRecords(world: id, kind: PendingPurchase.recordKind).compactMap {
            try? PayloadCoding.decoder.decode(PendingPurchase.self, from: Data($0.value.utf8))
        }
    }

    func pendingPurchase(_ id: String) async throws -> PendingPurchase? {
        try await pendingPurchases().first { $0.id == id }
    }

    /// `approveAskToBuyTransaction` / `declineAskToBuyTransaction`.
    func answerAskToBuy(_ id: String, approve: Bool) async throws -> WorldPurchase? {
        guard let pending = try await pendingPurchase(id), pending.kind == .askToBuy else {
            throw StoreError.transactionNotFound("no Ask to Buy request \(id)")
        }
        guard approve else {
            try await env.database.deleteWorldRecord(world: self.id, kind: PendingPurchase.recordKind, key: id)
            return nil
        }
        return try await complete(pending)
    }

    /// Turns a pending purchase into a real one, dated now; the app gets it as unfinished.
    func complete(_ pending: PendingPurchase) async throws -> WorldPurchase {
        let request = pending.request.purchaseRequest(world: id)
        let result = try await purchase(request, offer: nil, allowPending: false)
        try await env.database.deleteWorldRecord(world: id, kind: PendingPurchase.recordKind, key: pending.id)
        return result
    }

    // MARK: Refunds

    /// `refundTransaction`: the App Store refunds the purchase; access ends now. A refunded
    /// subscription period ends the subscription (status 5, revoked).
    func refund(transactionId: Int64, reason: RevocationReason, percentage: Int? = nil) async throws -> TransactionRecord {
        try await catchUp()
        guard let record = try await transactionRecord(transactionId) else {
            throw StoreError.transactionNotFound("no transaction \(transactionId) in world \(id)")
        }
        guard record.revokedMs == nil else { throw StoreError.invalidAction("transaction \(transactionId) is already refunded") }
        let key = CustomerKey(bundleId: record.bundleId, customer: record.customer)
        _ = try await history(key)
        var batch = WriteBatch()
        let now = nowMs()
        let refunded = try modify(record, in: &batch) { payload, _ in
            payload.revocationDate = now
            payload.revocationReason = reason
            if let percentage, percentage < 100_000 {
                payload.revocationType = .refundProrated
                payload.revocationPercentage = percentage
            } else {
                payload.revocationType = .refundFull
            }
        }
        if var chain = chains[record.originalId], chain.latestTransactionId == record.id, chain.isEntitled || chain.state == .billingRetry {
            chain.state = .revoked
            chain.autoRenewEnabled = false
            chain.expirationIntent = .other
            chain.gracePeriodExpiresMs = nil
            chain.billingRetryEndsMs = nil
            chain.schedule(nil, at: nil)
            store(chain, in: &batch)
        }
        emit(.refund, key: key, transactionId: record.id, atMs: now, in: &batch)
        try revokeFamilyCopies(of: refunded, at: now, in: &batch)
        try await commit(batch)
        return refunded
    }

    // MARK: Clearing

    /// `clearTransactions()`, for one customer or all of an app's customers in this world.
    func clearTransactions(bundleId: String, customer: String?) async throws {
        try await catchUp()
        for (originalId, chain) in chains where chain.bundleId == bundleId && (customer == nil || chain.customer == customer) {
            chains[originalId] = nil
            chainIndex[ChainKey(bundleId: chain.bundleId, customer: chain.customer, groupId: chain.groupId)] = nil
        }
        for key in Array(histories.keys) where key.bundleId == bundleId && (customer == nil || key.customer == customer) {
            histories[key] = nil
            pendingHistory[key] = nil
        }
        try await durably { try await env.database.deleteTransactions(world: id, bundleId: bundleId, customer: customer) }
    }
}

extension World {
    /// The Transaction Manager's Delete (`SKTestSession.deleteTransaction`): the transaction is
    /// gone from the history, entitlements and every list, with no notification, as if it had
    /// never been bought. A transaction of an auto-renewable subscription takes its whole
    /// subscription with it (every period, and its renewals to come), since a renewal cannot
    /// outlive the purchase it continues. Family members' shared copies stay.
    func deleteTransaction(_ transactionId: Int64) async throws {
        try await catchUp()
        guard let record = try await transactionRecord(transactionId) else {
            throw StoreError.transactionNotFound("no transaction \(transactionId) in world \(id)")
        }
        let key = CustomerKey(bundleId: record.bundleId, customer: record.customer)
        _ = try await history(key)
        let chain = chains[record.originalId]
        if let chain {
            chains[record.originalId] = nil
            chainIndex[ChainKey(bundleId: chain.bundleId, customer: chain.customer, groupId: chain.groupId)] = nil
        }
        histories[key]?.removeAll { $0.id == transactionId || (chain != nil && $0.originalId == record.originalId) }
        try await durably {
            try await env.database.deleteTransaction(world: id, id: transactionId, subscription: chain == nil ? nil : record.originalId)
        }
    }
}

extension World {
    /// Server API Set App Account Token: the chain remembers the token for the periods to come.
    func setChainAppAccountToken(originalId: Int64, token: String) async throws {
        guard var chain = chains[originalId] else { return }
        var batch = WriteBatch()
        chain.appAccountToken = token
        store(chain, in: &batch)
        try await commit(batch)
    }
}
