import Foundation
import StoreModel
import StoreStorage

/// Family Sharing. A purchase or renewal of a family-shareable product gives each other member of
/// the purchaser's family group a `FAMILY_SHARED` copy: its own transaction ID, its own original
/// transaction ID (one per member and purchaser's chain, so a member's renewals form a chain of
/// their own), the member's app transaction, the purchase's product and dates. A member's
/// entitlement follows the copies: a subscription copy ends when the purchaser's period does.
/// The copies are revoked (`FAMILY_REVOKE`, a REVOKE event) when the purchaser is refunded, or
/// when the purchaser or the member leaves the group; a member who joins gets copies of what the
/// others' purchases still grant.
///
/// Each member's copy gets App Store Server Notifications of its own, after the purchaser's and
/// with the member's transaction (`FamilySharingRules.memberNotification` says which): a shared
/// purchase or renewal mirrors the purchaser's event when the copy is made (`shareWithFamily`),
/// and an event on the purchaser's current transaction (renewal status, billing) mirrors to the
/// copies of it at once (`emitForFamilyCopies`, from `emit`). Losing access is REVOKE. A member
/// who joins later gets copies and no notification: Apple documents none for it.
extension World {
    /// Called after a purchase or renewal of `record` was added to `batch`. Each member's copy gets
    /// the notification mirrored from the purchaser's event in the batch, or, when the batch has
    /// none (a purchase shared late, `shareIfMissed`), the one a member gets for `fallback`.
    func shareWithFamily(_ record: TransactionRecord, product: CatalogProduct, app: StoreApp, in batch: inout WriteBatch,
                         fallback: (type: NotificationType, subtype: NotificationSubtype?)? = nil) throws {
        guard FamilySharingRules.isShared(product, ownership: record.ownership) else { return }
        let state = family
        guard state.loaded, let group = state.groupOf[record.customer] else { return }
        let source = try PayloadCoding.decoder.decode(TransactionPayload.self, from: Data(record.payload.utf8))
        // The purchaser's notification for this transaction, emitted just before: each member's copy gets its own.
        let event = batch.events.last { $0.transactionId == record.id && $0.customer == record.customer && $0.bundleId == record.bundleId }
        for member in state.members(of: group) where member != record.customer {
            guard let copy = try makeCopy(of: source, from: record, kind: product.kind, for: member, in: &batch) else { continue }
            if let event, let type = NotificationType(rawValue: event.type) {
                emitForMember(copy, mirroring: type, event.subtype.flatMap(NotificationSubtype.init(rawValue:)), atMs: event.atMs, in: &batch)
            } else if let fallback {
                emitForMember(copy, mirroring: fallback.type, fallback.subtype, atMs: record.purchaseMs, in: &batch)
            }
        }
    }

    /// Called by `emit` for each purchaser's event: the members' standing copies of
    /// `transactionId` get the notification Apple sends members for it, if any. A new
    /// transaction has no copies yet; `shareWithFamily` mirrors its event when it makes them.
    func emitForFamilyCopies(_ type: NotificationType, _ subtype: NotificationSubtype?, of transactionId: Int64?, atMs: Int64, in batch: inout WriteBatch) {
        guard let transactionId, FamilySharingRules.notifiesMembers(type) else { return }
        let state = family
        guard state.loaded, let copies = state.copiesBySource[transactionId] else { return }
        for copy in copies {
            guard let current = batch.transactions.last(where: { $0.id == copy.copyId }) ?? state.copyRecords[copy.copyId],
                  current.revokedMs == nil
            else { continue }
            emitForMember(copy, mirroring: type, subtype, atMs: atMs, in: &batch)
        }
    }

    /// The member's notification for the purchaser's `type`/`subtype`, carrying the member's copy.
    private func emitForMember(_ copy: FamilyCopy, mirroring type: NotificationType, _ subtype: NotificationSubtype?, atMs: Int64, in batch: inout WriteBatch) {
        guard let mirrored = FamilySharingRules.memberNotification(
            type: type, subtype: subtype, startsMemberChain: copy.copyOriginalId == copy.copyId)
        else { return }
        emit(mirrored.type, mirrored.subtype, key: CustomerKey(bundleId: copy.bundleId, customer: copy.member),
             transactionId: copy.copyId, atMs: atMs, in: &batch)
    }

    /// The purchaser's subscription as the member holding `record` (a copy) sees it, as it stood
    /// at event `seq`: the renewal info and status of the member's notifications. Nil for
    /// anything but a subscription copy, or when the purchaser's chain is not in memory.
    func familyMemberChain(of record: TransactionRecord, snapshot: (Int64) -> SubscriptionChain?) -> SubscriptionChain? {
        guard record.ownership == InAppOwnershipType.familyShared.rawValue,
              record.productKind == ProductKind.autoRenewable.rawValue,
              let sourceOriginalId = family.sourceOfCopyChain[record.originalId],
              let source = snapshot(sourceOriginalId),
              let payload = decided.payloads[record.seq] ?? (try? TransactionPayload(json: Array(record.payload.utf8)))
        else { return nil }
        return FamilySharingRules.memberChain(
            of: source, member: record.customer, copyOriginalId: record.originalId, latestCopyId: record.id,
            appTransactionId: payload.appTransactionId, copyRevoked: record.revokedMs != nil)
    }

    /// The subscriptions `customer` holds through Family Sharing in the app, as the customer sees
    /// them: one per purchaser's subscription, with the member's latest copy. Apple lists these in
    /// Get All Subscription Statuses beside the customer's own ("an entry for each entitlement
    /// the user has … a personal purchase as well as a family-shared purchase", DTS, Apple
    /// Developer Forums 731683), and StoreKit's `SubscriptionInfo.status` holds one per member.
    func familySharedChains(bundleId: String, customer: String) async throws -> [(chain: SubscriptionChain, latest: TransactionRecord)] {
        try await ensureFamiliesLoaded()
        var latestOfChain: [Int64: FamilyCopy] = [:]
        for copy in family.allCopies where copy.member == customer && copy.bundleId == bundleId {
            guard family.copyRecords[copy.copyId]?.productKind == ProductKind.autoRenewable.rawValue else { continue }
            if let seen = latestOfChain[copy.copyOriginalId], seen.copyId > copy.copyId { continue }
            latestOfChain[copy.copyOriginalId] = copy
        }
        var shared: [(chain: SubscriptionChain, latest: TransactionRecord)] = []
        for (_, copy) in latestOfChain.sorted(by: { $0.key < $1.key }) {
            _ = try await history(CustomerKey(bundleId: bundleId, customer: copy.sourceCustomer))
            guard let record = try await transactionRecord(copy.copyId),
                  let chain = familyMemberChain(of: record, snapshot: { self.chains[$0] })
            else { continue }
            shared.append((chain, record))
        }
        return shared
    }

    /// Called after `record` was refunded or revoked in `batch`: the copies of it go too, with the
    /// purchaser's revocation reason.
    func revokeFamilyCopies(of record: TransactionRecord, at nowMs: Int64, in batch: inout WriteBatch) throws {
        let copies = family.copiesBySource[record.id] ?? []
        guard !copies.isEmpty else { return }
        let source = try PayloadCoding.decoder.decode(TransactionPayload.self, from: Data(record.payload.utf8))
        for copy in copies {
            try revoke(copy, at: nowMs, reason: source.revocationReason ?? .otherReason, in: &batch)
        }
    }

    // MARK: Copies

    /// Makes the member's copy of `record`; nil when the member has one already.
    @discardableResult
    func makeCopy(of source: TransactionPayload, from record: TransactionRecord, kind: ProductKind, for member: String, in batch: inout WriteBatch) throws -> FamilyCopy? {
        let state = family
        if state.copiesBySource[record.id]?.contains(where: { $0.member == member }) == true { return nil }
        let chainKey = FamilyState.chainKey(member: member, bundleId: record.bundleId, sourceOriginalId: record.originalId)
        let copyId = env.identifiers.nextId()
        let originalId = kind == .autoRenewable ? (state.copyChains[chainKey] ?? copyId) : copyId
        let memberKey = CustomerKey(bundleId: record.bundleId, customer: member)
        let payload = FamilySharingRules.copy(
            of: source, transactionId: copyId, originalTransactionId: originalId,
            appTransactionId: memberAppTransactionId(memberKey, in: &batch))
        let stored = try store(payload, kind: kind, customer: member, in: &batch)
        let copy = FamilyCopy(
            member: member, bundleId: record.bundleId, sourceCustomer: record.customer, sourceId: record.id,
            sourceOriginalId: record.originalId, copyId: copyId, copyOriginalId: originalId)
        batch.worldRecords.append(WorldRecord(
            world: id, kind: FamilyCopy.recordKind, key: String(copyId),
            value: String(decoding: try PayloadCoding.encoder.encode(copy), as: UTF8.self)))
        updateFamily { $0.add(copy, record: stored) }
        return copy
    }

    /// Revokes a copy that still stands: not revoked (a copy refunded on its own stays as it is).
    func revoke(_ copy: FamilyCopy, at nowMs: Int64, reason: RevocationReason, in batch: inout WriteBatch) throws {
        guard var current = batch.transactions.last(where: { $0.id == copy.copyId }) ?? family.copyRecords[copy.copyId] else { return }
        let key = CustomerKey(bundleId: copy.bundleId, customer: copy.member)
        if let owned = histories[key]?.first(where: { $0.id == copy.copyId }) ?? pendingHistory[key]?[copy.copyId] {
            guard owned.revokedMs == nil else { return }
            current.finished = owned.finished
        }
        guard current.revokedMs == nil else { return }
        let revoked = try modify(current, in: &batch) { payload, _ in
            FamilySharingRules.revoke(&payload, atMs: nowMs, reason: reason)
        }
        updateFamily { $0.copyRecords[copy.copyId] = revoked }
        emit(.revoke, key: key, transactionId: revoked.id, atMs: nowMs, in: &batch)
    }

    /// The member's app transaction ID, made now if the member never had the app (the shared
    /// purchase is what brings it). Loaded app transactions are in memory (see `ensureFamiliesLoaded`).
    func memberAppTransactionId(_ key: CustomerKey, in batch: inout WriteBatch) -> String {
        if let known = appTransactions[key] { return known.appTransactionId }
        return newAppTransaction(key, in: &batch).appTransactionId
    }

    /// Shares a purchase the purchase path did not hand to the hook (a resubscription, an upgrade).
    func shareIfMissed(_ result: WorldPurchase) async throws {
        guard result.status == .purchased, let record = result.transaction, family.loaded,
              family.groupOf[record.customer] != nil, family.copiesBySource[record.id] == nil,
              let app = env.apps[record.bundleId], let product = app.catalog.product(record.productId),
              FamilySharingRules.isShared(product, ownership: record.ownership)
        else { return }
        var batch = WriteBatch()
        // The purchaser's event went out with the purchase: a member's copy of a subscription gets
        // SUBSCRIBED (access through Family Sharing), as on the main path; a one-time purchase none.
        let fallback: (NotificationType, NotificationSubtype?)? = product.kind == .autoRenewable ? (.subscribed, .resubscribe) : nil
        try shareWithFamily(record, product: product, app: app, in: &batch, fallback: fallback)
        if !batch.isEmpty { try await commit(batch) }
    }

    // MARK: Membership

    /// Reads the world's family groups and copies once, and the members' app transactions, so the
    /// hooks can share without waiting.
    func ensureFamiliesLoaded() async throws {
        if family.loaded { return }
        let memberships = try await env.database.worldRecords(world: id, kind: FamilyState.membershipKind)
        let copyRows = try await env.database.worldRecords(world: id, kind: FamilyCopy.recordKind)
        var loaded = FamilyState()
        loaded.loaded = true
        for row in memberships {
            guard let membership = try? PayloadCoding.decoder.decode(Membership.self, from: Data(row.value.utf8)) else { continue }
            loaded.groupOf[row.key] = membership.group
        }
        for row in copyRows {
            guard let copy = try? PayloadCoding.decoder.decode(FamilyCopy.self, from: Data(row.value.utf8)),
                  let record = try await env.database.transaction(id: copy.copyId), record.world == id
            else { continue }
            loaded.add(copy, record: record)
        }
        for member in loaded.groupOf.keys { try await loadAppTransactions(of: member) }
        if family.loaded { return }
        updateFamily { $0 = loaded }
    }

    func loadAppTransactions(of customer: String) async throws {
        for bundleId in env.apps.keys.sorted() {
            let key = CustomerKey(bundleId: bundleId, customer: customer)
            guard appTransactions[key] == nil,
                  let stored = try await env.database.appTransaction(world: id, bundleId: bundleId, customer: customer),
                  appTransactions[key] == nil
            else { continue }
            appTransactions[key] = stored
        }
    }

    struct Membership: Codable, Sendable { var group: String }

    /// Puts a customer in a family group (leaving any other first). The newcomer gets copies of
    /// what the members' purchases grant now, and the members get copies of the newcomer's.
    func joinFamily(_ customer: String, group: String) async throws -> [String] {
        try AppStore.checkCustomerName(customer)
        guard !group.isEmpty, group.unicodeScalars.count <= 200, !group.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StoreError.malformedRequest("a family group name is 1–200 characters without control characters")
        }
        try await catchUp()
        try await ensureFamiliesLoaded()
        if let current = family.groupOf[customer] {
            if current == group { return family.members(of: group) }
            try await leaveFamily(customer)
        }
        guard family.members(of: group).count < FamilySharingRules.maxGroupSize else {
            throw StoreError.invalidAction("family group \(group) is full: a family has at most \(FamilySharingRules.maxGroupSize) people")
        }
        if try await self.customer(customer) == nil { _ = try await saveCustomer(customer, storefront: nil, locale: nil) }
        try await loadAppTransactions(of: customer)
        let others = family.members(of: group)
        // What each person holds now, per app: their own purchases (not copies) that still grant access.
        var holdings: [(String, TransactionRecord, ProductKind)] = []
        let now = nowMs()
        for app in env.apps.values.sorted(by: { $0.bundleId < $1.bundleId }) {
            for person in others + [customer] {
                _ = try await history(CustomerKey(bundleId: app.bundleId, customer: person))
                let records = try await env.database.transactions(world: id, bundleId: app.bundleId, customer: person)
                var latestPerChain: [Int64: TransactionRecord] = [:]
                for record in records {
                    guard let product = app.catalog.product(record.productId),
                          FamilySharingRules.isShared(product, ownership: record.ownership),
                          let owned = OwnedTransaction(record: record), FamilySharingRules.grantsAccess(owned, nowMs: now)
                    else { continue }
                    if product.kind == .autoRenewable {
                        if let known = latestPerChain[record.originalId], known.purchaseMs >= record.purchaseMs { continue }
                        latestPerChain[record.originalId] = record
                    } else {
                        holdings.append((person, record, product.kind))
                    }
                }
                holdings += latestPerChain.values.sorted { $0.id < $1.id }.map { (person, $0, .autoRenewable) }
            }
        }
        guard family.groupOf[customer] == nil else { return family.members(of: family.groupOf[customer]!) }
        var batch = WriteBatch()
        batch.worldRecords.append(WorldRecord(
            world: id, kind: FamilyState.membershipKind, key: customer,
            value: String(decoding: try PayloadCoding.encoder.encode(Membership(group: group)), as: UTF8.self)))
        updateFamily { $0.groupOf[customer] = group }
        for (owner, record, kind) in holdings {
            let source = try PayloadCoding.decoder.decode(TransactionPayload.self, from: Data(record.payload.utf8))
            let receivers = owner == customer ? others : [customer]
            for member in receivers { try makeCopy(of: source, from: record, kind: kind, for: member, in: &batch) }
        }
        try await commit(batch)
        return family.members(of: group)
    }

    /// Takes a customer out of their family group: the copies they hold, and the copies others
    /// hold of their purchases, are revoked (revocation reason 0, as Apple documents for leaving).
    func leaveFamily(_ customer: String) async throws {
        try await catchUp()
        try await ensureFamiliesLoaded()
        guard family.groupOf[customer] != nil else { return }
        var batch = WriteBatch()
        let now = nowMs()
        let state = family
        for copy in state.allCopies where copy.member == customer || copy.sourceCustomer == customer {
            guard let record = state.copyRecords[copy.copyId], record.revokedMs == nil,
                  let owned = OwnedTransaction(record: record), FamilySharingRules.grantsAccess(owned, nowMs: now)
            else { continue }
            try revoke(copy, at: now, reason: .otherReason, in: &batch)
        }
        updateFamily { $0.groupOf[customer] = nil }
        if !batch.isEmpty { try await commit(batch) }
        try await durably { try await env.database.deleteWorldRecord(world: id, kind: FamilyState.membershipKind, key: customer) }
    }

    /// The customer's family group and its members (nil when in none).
    func familyGroup(of customer: String) async throws -> (group: String, members: [String])? {
        try await ensureFamiliesLoaded()
        guard let group = family.groupOf[customer] else { return nil }
        return (group, family.members(of: group))
    }
}
