import Foundation

/// A posted purchase stays with the identified customer who had it (the app's `keep` transfer
/// policy). The other customer is not named: the poster may not learn who it is.
public struct PurchaseBelongsToAnotherCustomer: Error, Sendable, CustomStringConvertible {
    public var description: String {
        "the purchase belongs to another customer and this app keeps purchases with their first customer (transferPolicy keep)"
    }
}

/// A `$deleted:` stand-in is the backend's own ID: the app cannot post, log in or set anything under it.
public struct StandInRefused: Error, Sendable, CustomStringConvertible {
    public var description: String { "a $deleted: ID stands in for an erased customer; the app cannot act as it" }
}

/// Customer info missing right after the write that made it: the backend's fault (a 500).
struct CustomerVanished: Error, CustomStringConvertible {
    var id: String
    var description: String { "customer \(id) vanished" }
}

/// Two identified customers cannot become one: log in would merge their purchases.
public struct AliasConflict: Error, Sendable, CustomStringConvertible {
    public var description: String {
        "both IDs name customers the app identified; purchases move between them only when the app posts them (transferPolicy)"
    }
}

/// What `POST /v1/customers/{id}/alias` answers: the customer now, and whether the new ID was new
/// (RevenueCat's `logIn` returns the same pair).
public struct LogInResult: Codable, Sendable, Equatable {
    public var created: Bool
    public var customer: CustomerInfo
}

/// Identity: log in (aliases and merges), deletion, subscriber attributes and granted entitlements.
/// Each is one write transaction; the rules are `CustomerIdentity`'s and `SubscriberAttributes`'.
extension SubscriptionBackend {
    /// Log in: from now on `newAppUserId` is the customer `appUserId` named. When `newAppUserId` is
    /// new, or `appUserId` is anonymous, `appUserId`'s customer merges into it (its purchases, events
    /// and attributes follow, and `appUserId` stays an alias). Two identified customers are not merged.
    public func logIn(appUserId: String, newAppUserId: String) async throws -> LogInResult {
        guard CustomerIdentity.isIdentified(newAppUserId) else {
            throw BackendRequestError("newAppUserId must be the app's own ID, not an anonymous or deleted one")
        }
        let wall = nowMs(), storeNow = try await storeNowMs()
        let (created, primary) = try await database.writeLedger { store -> (Bool, String) in
            let target = try await store.resolve(newAppUserId)
            let exists = try await store.customerExists(target)
            let current = try await store.resolve(appUserId)
            let currentExists = try await store.customerExists(current)
            if current == target {
                if !exists { store.insert(CustomerRow(appUserId: target, firstSeenMs: wall, firstSeenStoreMs: storeNow)) }
                return (!exists, target)
            }
            guard currentExists, !CustomerIdentity.isDeleted(current) else {
                if !exists { store.insert(CustomerRow(appUserId: target, firstSeenMs: wall, firstSeenStoreMs: storeNow)) }
                return (!exists, target)
            }
            // Only an anonymous customer merges (RevenueCat aliases an anonymous ID into the one
            // logged in to); from an identified one, log in switches to the other customer.
            guard CustomerIdentity.isAnonymous(current) else {
                guard !exists else { throw AliasConflict() }
                store.insert(CustomerRow(appUserId: target, firstSeenMs: wall, firstSeenStoreMs: storeNow))
                return (true, target)
            }
            if !exists { store.insert(CustomerRow(appUserId: target, firstSeenMs: wall, firstSeenStoreMs: storeNow)) }
            store.merge(from: current, into: target)
            return (!exists, target)
        }
        guard let info = try await customerInfo(appUserId: primary) else { throw CustomerVanished(id: primary) }
        return LogInResult(created: created, customer: info)
    }

    /// The app's AppTransaction (`AppTransaction.shared`'s `jwsRepresentation`) for the customer:
    /// customer info's `originalApplicationVersion` and `originalPurchaseDate` come from it (RevenueCat
    /// reads them from the receipt). Verified as Apple's `verifyAndDecodeAppTransaction` does; the
    /// newest signing per app and environment is kept.
    public func receiveAppTransaction(appUserId: String, signedAppTransaction: String) async throws -> CustomerInfo {
        let checker = try checker(for: signedAppTransaction, what: "app transaction")
        let fields: AppTransactionFields
        do {
            fields = try checker.appTransaction(signedAppTransaction)
        } catch {
            throw rejected(error, bundleId: checker.app.bundleId, what: "app transaction")
        }
        let now = nowMs(), storeNow = max(try await storeNowMs(), fields.signedDate ?? 0)
        let id = try await database.writeLedger { store -> String in
            let id = try await store.resolve(appUserId)
            guard !CustomerIdentity.isDeleted(id) else { throw BackendRequestError("a deleted customer's stand-in cannot post") }
            if try await !store.customerExists(id) { store.insert(CustomerRow(appUserId: id, firstSeenMs: now, firstSeenStoreMs: storeNow)) }
            try await store.store.save(AppTransactionRow(
                appUserId: id, bundleId: checker.app.bundleId, environment: fields.receiptType ?? "",
                appTransactionId: fields.appTransactionId, originalApplicationVersion: fields.originalApplicationVersion ?? "",
                originalPurchaseMs: fields.originalPurchaseDate ?? 0, signedMs: fields.signedDate ?? 0))
            return id
        }
        return try await infoAfterWrite(id, seenByApp: true)
    }

    /// Erases a customer on request (a deletion request under the GDPR or Apple's account deletion
    /// rule): attributes, grants, consent, aliases and tokens go; purchases and events stay for the
    /// figures under a random stand-in ID. Final: nothing links the stand-in back. False for an
    /// unknown customer.
    public func deleteCustomer(appUserId: String) async throws -> Bool {
        let standIn = CustomerIdentity.deletedId(uuids())
        let deleted = try await database.writeLedger { store -> Bool in
            let id = try await store.resolve(appUserId)
            guard try await store.customerExists(id), !CustomerIdentity.isDeleted(id) else { return false }
            try await store.store.deleteCustomer(id, standIn: standIn)
            return true
        }
        if deleted { await database.eraseFreedSpace() }
        return deleted
    }

    /// Sets (or, with a nil value, removes) subscriber attributes; the customer is created if new.
    public func setAttributes(appUserId: String, _ updates: [String: String?]) async throws -> CustomerInfo {
        try SubscriberAttributes.validate(updates)
        let now = nowMs(), storeNow = try await storeNowMs()
        let id = try await database.writeLedger { store -> String in
            let id = try await store.resolve(appUserId)
            guard CustomerIdentity.isIdentified(id) || CustomerIdentity.isAnonymous(id) else {
                throw AttributeRefusal("a deleted customer has no attributes", breaksTheDocument: false)
            }
            if try await !store.customerExists(id) { store.insert(CustomerRow(appUserId: id, firstSeenMs: now, firstSeenStoreMs: storeNow)) }
            let rows = updates.compactMap { key, value in value.map { AttributeRow(appUserId: id, key: key, value: $0, updatedMs: now) } }
            try await store.store.removeAttributes(updates.filter { $0.value == nil }.map(\.key), of: id)
            try await store.store.insert(rows, into: "bk_attributes", replacingOn: ["appUserId", "key"])
            let count = try await store.store.attributes(of: id).count
            guard count <= SubscriberAttributes.maxPerCustomer else {
                throw AttributeRefusal("a customer has at most \(SubscriberAttributes.maxPerCustomer) attributes; this would make \(count)",
                                       code: "tooManyAttributes", breaksTheDocument: false)
            }
            return id
        }
        return try await infoAfterWrite(id, seenByApp: true)
    }

    /// Grants `entitlement` by hand from now, for `duration` or until `expiresMs`; the customer is created if new.
    public func grantEntitlement(appUserId: String, entitlement: String, duration: PromotionalGrant.Duration?,
                                 expiresMs: Int64?, bundleId: String?) async throws -> CustomerInfo {
        guard let app = bundleId.map({ id in configuration.apps.first { $0.bundleId == id } }) ?? configuration.apps.first else {
            throw GrantRefusal(description: "no app \(bundleId ?? "") is configured", unknownApp: true)
        }
        let now = try await storeNowMs()
        let end: Int64?
        switch (duration, expiresMs) {
        case (let duration?, nil): end = PromotionalGrant.end(of: duration, fromMs: now)
        case (nil, let ms?) where ms > now: end = ms
        case (nil, _?): throw GrantRefusal(description: "expiresDate must be later than now (\(now))")
        default: throw GrantRefusal(description: "give either duration or expiresDate")
        }
        let grant = uuids().uuidString.lowercased()
        let webhooks = configuration.webhooks, wall = nowMs()
        let id = try await database.writeLedger { store -> String in
            let id = try await store.resolve(appUserId)
            guard !CustomerIdentity.isDeleted(id) else { throw GrantRefusal(description: "a deleted customer cannot be granted anything") }
            if try await !store.customerExists(id) { store.insert(CustomerRow(appUserId: id, firstSeenMs: wall, firstSeenStoreMs: now)) }
            let row = GrantRow(id: grant, appUserId: id, entitlement: entitlement, bundleId: app.bundleId,
                               duration: duration?.rawValue ?? "custom", startMs: now, expiresMs: end, revokedMs: nil)
            try await store.store.insert([row], into: "bk_grants")
            var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: wall)
            try await writer.recordGrant(row, type: .nonRenewingPurchase, atMs: now)
            return id
        }
        onEvents()
        return try await infoAfterWrite(id)
    }

    /// Ends every running grant of `entitlement` now; nil for an unknown customer.
    public func revokeGrants(appUserId: String, entitlement: String) async throws -> CustomerInfo? {
        let now = try await storeNowMs()
        let webhooks = configuration.webhooks, wall = nowMs(), apps = configuration.apps
        let (id, events) = try await database.writeLedger { store -> (String?, Int) in
            let id = try await store.resolve(appUserId)
            guard try await store.customerExists(id) else { return (nil, 0) }
            let running = try await store.store.runningGrants(of: id, entitlement: entitlement, atMs: now)
            try await store.store.revokeGrants(of: id, entitlement: entitlement, atMs: now)
            for grant in running {
                guard let app = apps.first(where: { $0.bundleId == grant.bundleId }) else { continue }
                var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: wall)
                try await writer.recordGrant(grant, type: .cancellation, atMs: now)
            }
            return (id, running.count)
        }
        if events > 0 { onEvents() }
        guard let id else { return nil }
        return try await infoAfterWrite(id)
    }

    /// The moment customer info judges at (its `requestDate`): the later of the backend's clock and
    /// the store's latest signing. Grants start and end on it, so a store running ahead in a test
    /// (`openstore time advance`) sees them as the customer's entitlements do.
    func storeNowMs() async throws -> Int64 {
        max(nowMs(), try await database.storeClock() ?? 0)
    }

    /// Support's grants and revokes are not the app's sightings; its attribute writes are.
    private func infoAfterWrite(_ id: String, seenByApp: Bool = false) async throws -> CustomerInfo {
        guard let info = try await customerInfo(appUserId: id, seenByApp: seenByApp) else { throw CustomerVanished(id: id) }
        return info
    }
}
