import Foundation
import StoreModel
import StoreStorage

/// A bounded memory of customers. A world keeps what it read or decided about a customer (the
/// record, the app transaction, the history, the subscription chains) so the next request needs
/// no read; beyond `CustomerMemoryPolicy.maximumCustomers` it forgets the least recently used.
///
/// Forgetting is a safe subset of the reload after a failed write (World+Reload.swift), which
/// forgets every customer at once: a customer comes back from the database on next use through
/// the same paths (`customer`, `history`, `appTransactionCreatingIfNeeded`). Only a customer whose
/// every change is durable is forgotten: none while a batch carrying its changes is being written
/// (`residency.written`), none while the scheduler is firing or writing a batch, none in a family
/// (Family Sharing's hooks read members' chains without waiting), and none used within
/// `minimumIdleMs`, so a request that read the customer and waits on the database finds it as it
/// left it. Chains with an event to come are forgotten too; their agenda entries stay, and the
/// scheduler reads such a chain back before its event fires (`loadEvictedChainsDue`).
extension World {
    /// Notes a use of the customer: the least recently used are forgotten first.
    func used(_ name: String) {
        residency.touch(name, realMs: env.realNowMs())
    }

    /// The customers whose changes `batch` carries, marked as being written.
    func writing(_ batch: WriteBatch) -> Set<String> {
        var names = Set<String>()
        for record in batch.customers { names.insert(record.name) }
        for record in batch.appTransactions { names.insert(record.customer) }
        for record in batch.transactions { names.insert(record.customer) }
        for record in batch.subscriptions { names.insert(record.customer) }
        for record in batch.events { names.insert(record.customer) }
        residency.writing(names)
        for name in names { used(name) }
        return names
    }

    /// Customers in memory now (for tests and figures).
    var residentCustomers: Int { residency.count }

    /// Forgets the least recently used customers once memory holds more than the bound plus its
    /// slack, down to the bound where the rule allows.
    func evictIdleCustomersIfNeeded() {
        let policy = env.customerMemory.policy
        guard residency.count > policy.maximumCustomers + policy.slack else { return }
        let now = env.realNowMs()
        guard residency.count > residency.nextSweepAt || now >= residency.retrySweepAtMs else { return }
        // Batches the scheduler decided may be in flight; memory being reloaded is not ours to trim.
        guard advancing == nil, committing == nil, !needsReload, reloading == nil else { return }
        // Family members, and customers whose record is not written yet (kept until a batch is).
        let pinned = Set(family.groupOf.keys).union(unwrittenCustomers).union(unwrittenAppTransactions.map(\.customer))
        let names = residency.evictable(
            limit: residency.count - policy.maximumCustomers, idleBeforeMs: now - policy.minimumIdleMs, pinned: pinned)
        if !names.isEmpty {
            var groups: [String: [String]] = [:]
            for (bundleId, app) in env.apps {
                groups[bundleId] = Array(Set(app.catalog.products.compactMap { $0.subscription?.groupID }))
            }
            for name in names { forget(name, groups: groups) }
        }
        // Customers still in use stay: the next sweep waits for as many new ones again, or until
        // they may have become idle, whichever comes first.
        let ceiling = policy.maximumCustomers + policy.slack
        residency.nextSweepAt = residency.count <= ceiling ? ceiling : residency.count + policy.slack
        residency.retrySweepAtMs = residency.count > ceiling ? now + policy.minimumIdleMs : .max
    }

    /// Drops everything kept about one customer in every app.
    private func forget(_ name: String, groups: [String: [String]]) {
        customers[name] = nil
        for bundleId in env.apps.keys {
            let key = CustomerKey(bundleId: bundleId, customer: name)
            appTransactions[key] = nil
            var ids = Set<Int64>()
            for owned in histories[key] ?? [] { ids.insert(owned.originalId) }
            for owned in pendingHistory[key]?.values ?? [:].values { ids.insert(owned.originalId) }
            for group in groups[bundleId] ?? [] {
                if let id = chainIndex[ChainKey(bundleId: bundleId, customer: name, groupId: group)] { ids.insert(id) }
            }
            for id in ids {
                guard let chain = chains[id], chain.customer == name, chain.bundleId == bundleId else { continue }
                if chain.nextEventMs != nil { residency.evictedScheduledChains += 1 }
                chains[id] = nil
                let chainKey = ChainKey(bundleId: bundleId, customer: name, groupId: chain.groupId)
                if chainIndex[chainKey] == id { chainIndex[chainKey] = nil }
            }
            histories[key] = nil
            // Durable (the customer has no batch in flight): the database holds these now.
            pendingHistory[key] = nil
            chainsLoaded.remove(key)
        }
        residency.forget(name)
    }

    /// Before the scheduler fires events due by `limitMs`, reads back the forgotten chains among
    /// the next `eventsPerBatch` entries (each with its customer), once per catch-up (`attempted`).
    /// Entries whose chain is gone from the database (deleted) are attempted and then skipped.
    func loadEvictedChainsDue(upTo limitMs: Int64, attempted: inout Set<Int64>) async throws {
        guard residency.evictedScheduledChains > 0 else { return }
        var peeked: [(due: Int64, originalId: Int64)] = []
        while peeked.count < Self.eventsPerBatch, let next = agenda.next, next.due <= limitMs {
            peeked.append(agenda.pop()!)
        }
        for entry in peeked { agenda.push(entry.due, entry.originalId) }
        let missing = Set(peeked.map(\.originalId)).filter { chains[$0] == nil && !attempted.contains($0) }
        if missing.count > Self.customersReloadedOneByOne {
            // A jump over many forgotten subscribers: one read of every scheduled chain, as a
            // reload does, instead of three reads per customer.
            try await loadEvictedScheduledChains()
            attempted.formUnion(missing)
            return
        }
        for originalId in missing.sorted() {
            attempted.insert(originalId)
            guard chains[originalId] == nil, let record = try await transactionRecord(originalId) else { continue }
            let key = CustomerKey(bundleId: record.bundleId, customer: record.customer)
            _ = try await history(key)
            // The renewal's notification names the customer's app version (`bundleVersion`).
            if appTransactions[key] == nil {
                let seen = generation
                let stored = try await env.database.appTransaction(world: id, bundleId: key.bundleId, customer: key.customer)
                try checkGeneration(seen)
                if appTransactions[key] == nil, let stored { appTransactions[key] = stored }
            }
        }
    }

    /// Beyond this many forgotten chains due in one batch, the scheduler reads all scheduled chains at once.
    static let customersReloadedOneByOne = 32

    /// Whether the scheduler must read the entry's chain back before firing it.
    func needsEvictedChain(_ originalId: Int64, attempted: Set<Int64>) -> Bool {
        residency.evictedScheduledChains > 0 && chains[originalId] == nil && !attempted.contains(originalId)
    }

    /// Reads back every forgotten chain with an event to come, for rules that look at all of a
    /// world's subscriptions at once (a mass renewal-date extension) and for a jump over many.
    func loadEvictedScheduledChains() async throws {
        guard residency.evictedScheduledChains > 0 else { return }
        let seen = generation
        let rows = try await env.database.scheduledSubscriptions(world: id)
        try checkGeneration(seen)
        for row in rows where chains[row.originalId] == nil {
            // Its agenda entry is still there; remembering pushes another, which fires nothing twice
            // (the scheduler checks the chain's own due time and event).
            if let chain = try? SubscriptionChain(json: Array(row.state.utf8)) { remember(chain) }
        }
    }
}

extension AppStore {
    /// Sets how many customers each world keeps in memory (`openstore serve --customers-in-memory`).
    public func keepCustomersInMemory(_ policy: CustomerMemoryPolicy) {
        worlds.env.customerMemory.policy = policy
    }

    func customersInMemory(world: String) async throws -> Int {
        try await self.loadedWorld(world).residentCustomers
    }
}
