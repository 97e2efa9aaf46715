import Foundation
import StoreModel
import StoreStorage

/// Renewal-date extensions (Server API: Extend a Subscription Renewal Date, Extend Subscription
/// Renewal Dates for All Active Subscribers, Get Status of Subscription Renewal Date Extensions).
/// An extension moves the current transaction's `expiresDate` (a modification: it takes a new
/// change number), the chain's renewal date and its scheduled renewal, and emits RENEWAL_EXTENDED.
extension World {
    static let extensionKind = "renewal_extension"
    static let massExtensionKind = "mass_renewal_extension"
    /// Serializes extension requests per subscription (and per mass request) so a repeated
    /// `requestIdentifier` is answered from the first result, never applied twice.
    static let extensionQueue = KeyedSerializer()

    struct ExtensionOrder: Sendable {
        var days: Int
        var reasonCode: Int
        var requestIdentifier: String
    }

    /// Extends one purchased subscription. The same `requestIdentifier` for the same
    /// subscription answers with the first result and changes nothing.
    func extendRenewalDate(bundleId: String, originalTransactionId: Int64, order: ExtensionOrder) async throws -> ExtendRenewalDateResponse {
        let lockKey = "\(id)\u{0}\(bundleId)\u{0}\(originalTransactionId)"
        return try await Self.extensionQueue.serialized(lockKey) {
            try await extendLocked(bundleId: bundleId, originalTransactionId: originalTransactionId, order: order)
        }
    }

    private func extendLocked(bundleId: String, originalTransactionId: Int64, order: ExtensionOrder) async throws -> ExtendRenewalDateResponse {
        let recordKey = "\(bundleId)\n\(originalTransactionId)\n\(order.requestIdentifier)"
        if let earlier = try await worldDocument(ExtendRenewalDateResponse.self, kind: Self.extensionKind, key: recordKey) { return earlier }
        try await catchUp()
        guard let record = try await transactionRecord(originalTransactionId), record.bundleId == bundleId,
              record.originalId == record.id else { throw RenewalExtensionRules.originalTransactionIdNotFound }
        _ = try await history(CustomerKey(bundleId: record.bundleId, customer: record.customer))
        guard chains[originalTransactionId] != nil else { throw RenewalExtensionRules.subscriptionExtensionIneligible }
        // Read the current transaction before the rules run; re-read if a renewal replaced it meanwhile.
        var current: [Int64: TransactionRecord] = [:]
        var copies: [Int64: TransactionRecord] = [:]
        for _ in 0..<3 {
            current = try await currentTransactions(of: [originalTransactionId])
            copies = try await currentTransactions(of: familyCopies(of: originalTransactionId))
            if current[originalTransactionId]?.id == chains[originalTransactionId]?.latestTransactionId { break }
        }
        // No suspension from here to the commit.
        guard let chain = chains[originalTransactionId], let latest = current[originalTransactionId], latest.id == chain.latestTransactionId else {
            throw RenewalExtensionRules.subscriptionExtensionIneligible
        }
        let now = nowMs()
        if let refusal = RenewalExtensionRules.ineligibility(of: chain, current: try payload(of: latest), nowMs: now) { throw refusal }
        var batch = WriteBatch()
        let extended = try applyExtension(chain, current: latest, days: order.days, at: now, in: &batch)
        try extendFamilyCopies(of: chain, copies: copies, days: order.days, at: now, in: &batch)
        let response = ExtendRenewalDateResponse(
            originalTransactionId: String(originalTransactionId),
            webOrderLineItemId: (try? payload(of: latest).webOrderLineItemId) ?? TransactionFactory.webOrderLineItemId(for: latest.id),
            success: true, effectiveDate: extended.expiresMs)
        batch.worldRecords.append(try worldDocumentRecord(response, kind: Self.extensionKind, key: recordKey))
        try await commit(batch)
        return response
    }

    /// Extends every active, purchased subscription currently on `productId` in the storefronts
    /// (all when nil). Apple runs this over hours; here it completes before answering, and the
    /// status reads complete at once. Ineligible subscribers count as failed and each gets a
    /// RENEWAL_EXTENSION / FAILURE event; a RENEWAL_EXTENSION / SUMMARY event closes the request.
    /// Subscriptions in billing retry or grace are not active subscribers and are not counted.
    func massExtend(bundleId: String, productId: String, storefronts: Set<String>?, order: ExtensionOrder) async throws -> MassExtendRenewalDateStatusResponse {
        let recordKey = "\(bundleId)\n\(productId)\n\(order.requestIdentifier)"
        let lockKey = "\(id)\u{0}mass\u{0}\(recordKey)"
        return try await Self.extensionQueue.serialized(lockKey) {
            try await massExtendLocked(bundleId: bundleId, productId: productId, storefronts: storefronts, order: order, recordKey: recordKey)
        }
    }

    private func massExtendLocked(bundleId: String, productId: String, storefronts: Set<String>?, order: ExtensionOrder, recordKey: String) async throws -> MassExtendRenewalDateStatusResponse {
        if let earlier = try await worldDocument(MassExtendRenewalDateStatusResponse.self, kind: Self.massExtensionKind, key: recordKey) { return earlier }
        try await catchUp()
        try await loadEvictedScheduledChains()
        func isTarget(_ chain: SubscriptionChain) -> Bool {
            chain.bundleId == bundleId && chain.productId == productId && chain.state == .active && chain.ownership == .purchased
                && chain.sharedFromOriginalId == nil && (storefronts?.contains(chain.storefront) ?? true)
        }
        let ids = chains.values.filter(isTarget).map(\.originalTransactionId).sorted()
        let current = try await currentTransactions(of: ids)
        let copies = try await currentTransactions(of: ids.flatMap { familyCopies(of: $0) })
        // No suspension from here to the commit: chains that changed meanwhile are judged as they are now.
        let now = nowMs()
        var batch = WriteBatch()
        var succeeded: Int64 = 0
        var failed: Int64 = 0
        for originalId in ids {
            guard let chain = chains[originalId], isTarget(chain) else { continue }
            let key = CustomerKey(bundleId: chain.bundleId, customer: chain.customer)
            if let latest = current[originalId], latest.id == chain.latestTransactionId,
               RenewalExtensionRules.ineligibility(of: chain, current: try payload(of: latest), nowMs: now) == nil {
                _ = try applyExtension(chain, current: latest, days: order.days, at: now, in: &batch)
                try extendFamilyCopies(of: chain, copies: copies, days: order.days, at: now, in: &batch)
                succeeded += 1
            } else {
                failed += 1
                batch.events.append(EventRecord(
                    seq: env.identifiers.nextSeq(), world: id, bundleId: key.bundleId, customer: key.customer,
                    type: NotificationType.renewalExtension.rawValue, subtype: NotificationSubtype.failure.rawValue, transactionId: chain.latestTransactionId,
                    originalId: chain.originalTransactionId, atMs: now,
                    data: Self.json(["requestIdentifier": .string(order.requestIdentifier)])))
            }
        }
        let status = MassExtendRenewalDateStatusResponse(
            requestIdentifier: order.requestIdentifier, complete: true, completeDate: now,
            succeededCount: succeeded, failedCount: failed)
        var summary: [String: SummaryValue] = [
            "requestIdentifier": .string(order.requestIdentifier), "productId": .string(productId),
            "succeededCount": .int(succeeded), "failedCount": .int(failed),
        ]
        if let storefronts { summary["storefrontCountryCodes"] = .list(storefronts.sorted()) }
        // The summary concerns no single customer: it is filed under an empty customer name.
        batch.events.append(EventRecord(
            seq: env.identifiers.nextSeq(), world: id, bundleId: bundleId, customer: "", type: NotificationType.renewalExtension.rawValue,
            subtype: NotificationSubtype.summary.rawValue, transactionId: nil, originalId: nil, atMs: now, data: Self.json(summary)))
        batch.worldRecords.append(try worldDocumentRecord(status, kind: Self.massExtensionKind, key: recordKey))
        try await commit(batch)
        return status
    }

    /// The status of a mass extension request, or nil when none has that product and identifier.
    func massExtensionStatus(bundleId: String, productId: String, requestIdentifier: String) async throws -> MassExtendRenewalDateStatusResponse? {
        try await worldDocument(MassExtendRenewalDateStatusResponse.self, kind: Self.massExtensionKind,
                                key: "\(bundleId)\n\(productId)\n\(requestIdentifier)")
    }

    // MARK: Applying

    /// Moves the chain's renewal date and its current transaction's `expiresDate` by `days`.
    func applyExtension(_ chain: SubscriptionChain, current: TransactionRecord, days: Int, at now: Int64, in batch: inout WriteBatch) throws -> SubscriptionChain {
        var chain = chain
        let expires = RenewalExtensionRules.extendedExpiry(chain.expiresMs, byDays: days, rate: rate)
        _ = try modify(current, in: &batch) { payload, _ in payload.expiresDate = expires }
        chain.expiresMs = expires
        chain.extensionDatesMs.append(now)
        if chain.nextEvent == .renewal { chain.schedule(.renewal, at: expires) }
        store(chain, in: &batch)
        emit(.renewalExtended, chain: chain, key: key(of: chain), transactionId: current.id, atMs: now, in: &batch)
        return chains[chain.originalTransactionId] ?? chain
    }

    /// Apple: extending a purchased subscription that supports Family Sharing extends the family
    /// members' copies as well. Their own extension count is not limited by it.
    func extendFamilyCopies(of chain: SubscriptionChain, copies: [Int64: TransactionRecord], days: Int, at now: Int64, in batch: inout WriteBatch) throws {
        for copyId in familyCopies(of: chain.originalTransactionId) {
            guard let copy = chains[copyId], copy.state == .active, let current = copies[copyId], current.id == copy.latestTransactionId else { continue }
            _ = try applyExtension(copy, current: current, days: days, at: now, in: &batch)
        }
    }

    func familyCopies(of originalId: Int64) -> [Int64] {
        chains.values.filter { $0.sharedFromOriginalId == originalId }.map(\.originalTransactionId).sorted()
    }

    /// The latest transaction of each chain, read before the rules run.
    func currentTransactions(of originalIds: [Int64]) async throws -> [Int64: TransactionRecord] {
        var out: [Int64: TransactionRecord] = [:]
        for originalId in originalIds {
            guard let latestId = chains[originalId]?.latestTransactionId, let record = try await transactionRecord(latestId) else { continue }
            out[originalId] = record
        }
        return out
    }

    func payload(of record: TransactionRecord) throws -> TransactionPayload {
        try PayloadCoding.decoder.decode(TransactionPayload.self, from: Data(record.payload.utf8))
    }

    // MARK: Documents

    func worldDocument<T: Decodable>(_ type: T.Type, kind: String, key: String) async throws -> T? {
        guard let record = try await env.database.worldRecords(world: id, kind: kind).first(where: { $0.key == key }) else { return nil }
        return try? PayloadCoding.decoder.decode(T.self, from: Data(record.value.utf8))
    }

    func worldDocumentRecord<T: Encodable>(_ value: T, kind: String, key: String) throws -> WorldRecord {
        WorldRecord(world: id, kind: kind, key: key, value: String(decoding: try PayloadCoding.encoder.encode(value), as: UTF8.self))
    }

    enum SummaryValue: Encodable {
        case string(String), int(Int64), list([String])
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .list(let value): try container.encode(value)
            }
        }
    }

    /// The `data` of an event: what its notification needs beyond the transaction.
    static func json(_ fields: [String: SummaryValue]) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(fields)).map { String(decoding: $0, as: UTF8.self) }
    }
}
