import Foundation
import StoreModel
import StoreShared
import StoreSigning
import StoreStorage
import Synchronization

/// What every world shares: the apps, the database, the store-wide counters and the signer.
struct WorldEnvironment: Sendable {
    var apps: [String: StoreApp]
    var database: StoreDatabase
    var identifiers: Identifiers
    var signer: JWSSigner
    /// Real time; worlds derive their own time from it.
    var realNowMs: @Sendable () -> Int64
    /// With many instances on one PostgreSQL: the leases this instance holds (nil on SQLite).
    var ownership: WorldOwnership?
    /// Where committed transaction changes are announced (`Transaction.updates`).
    var feed = TransactionFeed()
    /// Signalled when notifications may have fallen due: a committed batch added some, or a
    /// world's clock jumped. The delivery service sleeps on it instead of polling (issue #27).
    var outbox = WakeSignal()
    /// The apps' notification URLs per world, cached for this store only.
    var notificationURLs = NotificationURLBook()
    /// How many customers each world keeps in memory (World+Eviction.swift).
    var customerMemory = CustomerMemorySetting()
}

/// A customer's copy of one app: the unit purchase histories are kept by.
struct CustomerKey: Hashable, Sendable {
    var bundleId: String
    var customer: String
}

/// An isolated App Store state: its own customers, purchases, clock and Transaction Manager
/// settings. All changes to a world happen on this actor, so a rule is checked and its outcome
/// recorded in one step; the database write that makes it durable is awaited before answering.
actor World {
    let id: String
    let env: WorldEnvironment
    let createdMs: Int64
    var settings: WorldSettings
    /// The settings as the database last took them: what a discarded memory falls back to at once.
    var savedSettings: WorldSettings
    /// Family state and claims the synchronous purchase hooks read without waiting on the actor.
    nonisolated let sideTables = WorldSideTables()

    var customers: [String: CustomerRecord] = [:]
    var appTransactions: [CustomerKey: AppTransactionRecord] = [:]
    /// Purchase histories of customers loaded so far.
    var histories: [CustomerKey: [OwnedTransaction]] = [:]
    /// Changes to customers not loaded yet, merged when they load (a renewal may fire first).
    var pendingHistory: [CustomerKey: [Int64: OwnedTransaction]] = [:]
    var chains: [Int64: SubscriptionChain] = [:]
    var chainIndex: [ChainKey: Int64] = [:]
    var chainsLoaded: Set<CustomerKey> = []
    var agenda = EventAgenda()
    var driver: Task<Void, Never>?
    /// Wakes the scheduler's driver when its next event moved earlier, the clock changed, or
    /// memory must be read back, so it sleeps until its next event instead of polling.
    let schedulerWake = WakeSignal()
    /// The catch-up in progress, if any (see `advance(to:)`).
    var advancing: Task<Void, any Error>?
    /// The last clock jump asked for: jumps run one after another (see `advanceClock`).
    var lastJump: Task<Void, Never>?
    /// The scheduler's batch being written while it decides the next one (see `applyDueEvents`).
    var committing: WriteBatch?
    /// The generation of the world's memory: it moves when memory is discarded after a failed
    /// write and again once reloaded (World+Reload.swift). Batches carry it as their fence.
    var generation = 0
    /// Memory was discarded and is not loaded back yet.
    var needsReload = false
    /// The reload in progress, if any (`reloadIfNeeded`).
    var reloading: Task<Void, any Error>?
    /// This world instance as a writer, for the group committer's fence. Never leaves the process
    /// and appears in no answer, so it is not drawn from the store's `UUIDSource`.
    let writeScope = UUID().uuidString
    /// With many instances, the epoch of this instance's lease on the world (WorldOwnership):
    /// every write carries it, and the database refuses it once another instance took over.
    /// Read without waiting for the actor: the heartbeat reads it while a clock jump keeps the
    /// world busy, and must renew on time.
    nonisolated var leaseEpoch: Int64? { leaseBox.withLock { $0 } }
    private let leaseBox = Mutex<Int64?>(nil)
    func setLeaseEpoch(_ epoch: Int64?) { leaseBox.withLock { $0 = epoch } }
    /// Customers and app copies made in memory whose batch is not durable yet: every batch that
    /// uses them writes them again until one is (a purchase refused after making them, by a
    /// simulated error, never wrote them, and the next one found them in memory).
    var unwrittenCustomers: Set<String> = []
    var unwrittenAppTransactions: Set<CustomerKey> = []
    /// `commit`s between their decision and their write's outcome; a reload waits for them.
    var writesInFlight = 0
    var settleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Payloads and chains of batches not yet committed, by change number: a batch's
    /// notifications take them as values instead of parsing the JSON just encoded for the rows.
    var decided = DecidedValues()
    /// Which customers are in memory, their last use and unwritten changes (World+Eviction.swift).
    var residency = CustomerResidency()

    struct ChainKey: Hashable, Sendable {
        var bundleId: String
        var customer: String
        var groupId: String
    }

    init(id: String, env: WorldEnvironment, settings: WorldSettings, createdMs: Int64) {
        self.id = id
        self.env = env
        self.settings = settings
        self.savedSettings = settings
        self.createdMs = createdMs
    }

    /// Loads the chains with events to come, so that events due while the store was down fire now.
    func loadAgenda() async throws {
        for record in try await env.database.scheduledSubscriptions(world: id) {
            guard let chain = try? SubscriptionChain(json: Array(record.state.utf8)) else { continue }
            remember(chain)
        }
    }

    func nowMs() -> Int64 { settings.clock.worldMs(atReal: env.realNowMs()) }
    /// The real time at which the world's clock reads `worldMs`.
    func realMs(atWorld worldMs: Int64) -> Int64 { settings.clock.realMs(atWorld: worldMs) }

    func app(_ bundleId: String) throws(StoreError) -> StoreApp {
        guard let app = env.apps[bundleId] else { throw .appNotFound("no app with bundle ID \(bundleId)") }
        return app
    }

    // MARK: Settings

    var rate: TimeRate { settings.clock.rate }

    func failRenewals(_ app: StoreApp) -> Bool { settings.failRenewals ?? app.catalog.settings.renewalBillingIssuesEnabled }
    func gracePeriodEnabled(_ app: StoreApp) -> Bool { settings.billingGracePeriod ?? app.catalog.settings.billingGracePeriodEnabled }
    func askToBuy(_ app: StoreApp) -> Bool { settings.askToBuy ?? app.catalog.settings.askToBuyEnabled }
    func interruptedPurchases(_ app: StoreApp) -> Bool { settings.interruptedPurchases ?? app.catalog.settings.interruptedPurchasesEnabled }

    /// Saves the settings changed in memory; if that fails, memory is read back (World+Reload).
    func saveSettings() async throws {
        let saving = settings
        let text = String(decoding: try PayloadCoding.encoder.encode(saving), as: UTF8.self)
        try await durably { try await env.database.saveWorld(id: id, createdMs: createdMs, config: text, lease: leaseEpoch) }
        savedSettings = saving
    }

    // MARK: Customers

    func customer(_ name: String) async throws -> CustomerRecord? {
        if let known = customers[name] {
            used(name)
            return known
        }
        let seen = generation
        residency.startLoading(name)
        defer { residency.finishLoading(name) }
        let stored = try await env.database.customer(world: id, name: name)
        try checkGeneration(seen)
        used(name)
        if let known = customers[name] { return known }
        if let stored { customers[name] = stored }
        return stored
    }

    /// The customer, created on first use with the catalog's default storefront and locale.
    func customerCreatingIfNeeded(_ name: String, app: StoreApp, batch: inout WriteBatch) async throws -> CustomerRecord {
        try AppStore.checkCustomerName(name)
        if let known = try await customer(name) {
            if unwrittenCustomers.contains(name) { batch.customers.append(known) }
            return known
        }
        let settings = app.catalog.settings
        let created = CustomerRecord(
            world: id, name: name, storefront: Storefront.lookup(settings.storefront)?.countryCode ?? "USA",
            locale: settings.locale, createdMs: nowMs())
        customers[name] = created
        unwrittenCustomers.insert(name)
        batch.customers.append(created)
        return created
    }

    func appTransactionCreatingIfNeeded(_ key: CustomerKey, batch: inout WriteBatch) async throws -> AppTransactionRecord {
        if let known = appTransactions[key] {
            if unwrittenAppTransactions.contains(key) { batch.appTransactions.append(known) }
            return known
        }
        let seen = generation
        residency.startLoading(key.customer)
        defer { residency.finishLoading(key.customer) }
        let stored = try await env.database.appTransaction(world: id, bundleId: key.bundleId, customer: key.customer)
        try checkGeneration(seen)
        used(key.customer)
        if let known = appTransactions[key] { return known }
        if let stored {
            appTransactions[key] = stored
            return stored
        }
        return newAppTransaction(key, in: &batch)
    }

    /// The customer's first copy of the app, made now (the current version is the original one).
    func newAppTransaction(_ key: CustomerKey, in batch: inout WriteBatch) -> AppTransactionRecord {
        let now = nowMs()
        let version = env.apps[key.bundleId]?.applicationVersion ?? "1.0"
        let created = AppTransactionRecord(
            world: id, bundleId: key.bundleId, customer: key.customer, appTransactionId: String(env.identifiers.nextId()),
            applicationVersion: version, originalApplicationVersion: version, originalPurchaseMs: now,
            originalPlatform: PurchasePlatform.iOS.rawValue, createdMs: now)
        appTransactions[key] = created
        unwrittenAppTransactions.insert(key)
        used(key.customer)
        batch.appTransactions.append(created)
        return created
    }

    // MARK: Histories and chains

    /// The customer's transactions in the app, loading them (and their subscription chains) once.
    func history(_ key: CustomerKey) async throws -> [OwnedTransaction] {
        if let known = histories[key] {
            used(key.customer)
            return known
        }
        let seen = generation
        // Not forgotten while its rows are read: changes committed after the read's snapshot are
        // in `pendingHistory` and the chains, and forgetting would drop them (a purchase made
        // meanwhile went missing from the history: CustomerMemoryTests on PostgreSQL).
        residency.startLoading(key.customer)
        defer { residency.finishLoading(key.customer) }
        let records = try await env.database.transactions(world: id, bundleId: key.bundleId, customer: key.customer)
        let subscriptionRows = try await env.database.subscriptions(world: id, bundleId: key.bundleId, customer: key.customer)
        try checkGeneration(seen)
        used(key.customer)
        if let known = histories[key] { return known }
        var byId: [Int64: OwnedTransaction] = [:]
        var order: [Int64] = []
        for record in records {
            guard let owned = OwnedTransaction(record: record) else { continue }
            byId[owned.id] = owned
            order.append(owned.id)
        }
        for (id, owned) in pendingHistory.removeValue(forKey: key) ?? [:] {
            if byId[id] == nil { order.append(id) }
            byId[id] = owned
        }
        histories[key] = order.compactMap { byId[$0] }
        for row in subscriptionRows where chains[row.originalId] == nil {
            if let chain = try? SubscriptionChain(json: Array(row.state.utf8)) { remember(chain) }
        }
        chainsLoaded.insert(key)
        let loaded = histories[key] ?? []
        // Reads alone bring customers back into memory: they count towards the bound too.
        evictIdleCustomersIfNeeded()
        return loaded
    }

    /// Adds or replaces a transaction in the customer's history, loaded or not.
    func record(_ owned: OwnedTransaction, for key: CustomerKey) {
        used(key.customer)
        if histories[key] != nil {
            // Changed in place: copying the list out and back would copy it on every renewal.
            if let index = histories[key]!.firstIndex(where: { $0.id == owned.id }) {
                histories[key]![index] = owned
            } else {
                histories[key]!.append(owned)
            }
        } else {
            pendingHistory[key, default: [:]][owned.id] = owned
        }
    }

    func remember(_ chain: SubscriptionChain) {
        used(chain.customer)
        chains[chain.originalTransactionId] = chain
        chainIndex[ChainKey(bundleId: chain.bundleId, customer: chain.customer, groupId: chain.groupId)] = chain.originalTransactionId
        if let due = chain.nextEventMs { schedule(due, chain.originalTransactionId) }
    }

    /// Puts a chain's next event on the agenda; the driver wakes when it is now the soonest.
    func schedule(_ due: Int64, _ originalId: Int64) {
        let sooner = agenda.next.map { due < $0.due } ?? true
        agenda.push(due, originalId)
        if sooner { schedulerWake.signal() }
    }

    func chain(_ key: ChainKey) -> SubscriptionChain? {
        chainIndex[key].flatMap { chains[$0] }
    }

    /// Saves a changed chain: in memory now, in the batch for the database, and on the agenda.
    func store(_ chain: SubscriptionChain, in batch: inout WriteBatch) {
        var chain = chain
        chain.version = env.identifiers.nextSeq()
        let previous = chains[chain.originalTransactionId]
        used(chain.customer)
        chains[chain.originalTransactionId] = chain
        chainIndex[ChainKey(bundleId: chain.bundleId, customer: chain.customer, groupId: chain.groupId)] = chain.originalTransactionId
        // A new due time, or another event at the same time (a retry attempt and the grace period's
        // end can coincide), needs an agenda entry; the one that fired is already off the heap.
        if let due = chain.nextEventMs, previous == nil || due != previous?.nextEventMs || chain.nextEvent != previous?.nextEvent {
            schedule(due, chain.originalTransactionId)
        }
        decided.chains[chain.version] = chain
        batch.subscriptions.append(SubscriptionRecord(
            world: id, originalId: chain.originalTransactionId, bundleId: chain.bundleId, customer: chain.customer,
            groupId: chain.groupId, productId: chain.productId, status: chain.status.rawValue,
            nextEventMs: chain.nextEventMs, version: chain.version,
            state: String(decoding: chain.jsonBytes, as: UTF8.self),
            updatedMs: nowMs()))
    }

    /// Adds a new or changed transaction to the batch and the customer's history.
    func store(_ payload: TransactionPayload, kind: ProductKind, customer: String, orderSeq: Int64? = nil, finished: Bool = false,
               in batch: inout WriteBatch) throws -> TransactionRecord {
        let seq = env.identifiers.nextSeq()
        let id = Int64(payload.transactionId) ?? 0
        let record = TransactionRecord(
            id: id, world: self.id, seq: seq, originalId: Int64(payload.originalTransactionId) ?? 0,
            bundleId: payload.bundleId, customer: customer, productId: payload.productId, productKind: kind.rawValue,
            groupId: payload.subscriptionGroupIdentifier, purchaseMs: payload.purchaseDate, expiresMs: payload.expiresDate,
            revokedMs: payload.revocationDate, finished: finished, orderId: OrderID.make(orderSeq ?? seq),
            ownership: payload.inAppOwnershipType.rawValue,
            payload: String(decoding: payload.jsonBytes, as: UTF8.self))
        batch.transactions.append(record)
        decided.payloads[seq] = payload
        if let owned = OwnedTransaction(record: record) {
            self.record(owned, for: CustomerKey(bundleId: payload.bundleId, customer: customer))
        }
        return record
    }

    /// Changes a stored transaction: it takes a new change number and keeps its order ID.
    func modify(_ record: TransactionRecord, in batch: inout WriteBatch, _ change: (inout TransactionPayload, inout TransactionRecord) throws -> Void) throws -> TransactionRecord {
        var record = record
        var payload = try TransactionPayload(json: Array(record.payload.utf8))
        try change(&payload, &record)
        record.seq = env.identifiers.nextSeq()
        record.expiresMs = payload.expiresDate
        record.revokedMs = payload.revocationDate
        record.payload = String(decoding: payload.jsonBytes, as: UTF8.self)
        batch.transactions.removeAll { $0.id == record.id }
        batch.transactions.append(record)
        decided.payloads[record.seq] = payload
        if let owned = OwnedTransaction(record: record) {
            self.record(owned, for: CustomerKey(bundleId: record.bundleId, customer: record.customer))
        }
        return record
    }

    /// The latest stored version of a transaction: the batch being built wins over the database.
    func transactionRecord(_ id: Int64, pending batch: WriteBatch? = nil, committing inFlight: WriteBatch? = nil) async throws -> TransactionRecord? {
        if let inBatch = batch?.transactions.last(where: { $0.id == id }) { return inBatch }
        if let inFlight = inFlight?.transactions.last(where: { $0.id == id }) { return inFlight }
        let seen = generation
        let stored = try await env.database.transaction(id: id)
        try checkGeneration(seen)
        guard let record = stored, record.world == self.id else { return nil }
        return record
    }

    func emit(_ type: NotificationType, _ subtype: NotificationSubtype? = nil, chain: SubscriptionChain? = nil, key: CustomerKey, transactionId: Int64?, atMs: Int64, in batch: inout WriteBatch) {
        batch.events.append(EventRecord(
            seq: env.identifiers.nextSeq(), world: id, bundleId: key.bundleId, customer: key.customer, type: type.rawValue,
            subtype: subtype?.rawValue, transactionId: transactionId, originalId: chain?.originalTransactionId, atMs: atMs))
        // Family members' copies of the transaction get their own notification, after this one (World+Family).
        emitForFamilyCopies(type, subtype, of: transactionId, atMs: atMs, in: &batch)
    }

    /// Makes a batch durable. Its App Store events become notifications in the same database
    /// transaction, so an event is never recorded without its notification, or the reverse.
    /// Once durable, its transactions are announced on the feed (`Transaction.updates`), unless
    /// `announce` is false: finishing keeps a transaction's place in the change sequence and is
    /// the device's own business, so it is no update. The feed reservation is taken before the
    /// first suspension: callers decide a batch and commit it in one actor turn (see TransactionFeed).
    ///
    /// The batch's changes are in memory already. If it cannot be written, memory is discarded
    /// and reloaded from the database (World+Reload.swift), so a refused purchase never counts as
    /// owned; batches decided on that memory meanwhile are refused too (`WriteFence`).
    func commit(_ batch: WriteBatch, announce: Bool = true) async throws {
        if needsReload {
            // Decided on memory that was discarded and not read back (a caller that did not catch up):
            // refused, and the world starts reading itself back for the next caller.
            discardMemory()
            Task { try? await self.reloadIfNeeded() }
            throw WorldReloading()
        }
        var batch = batch
        batch.fence = fence
        if let leaseEpoch { batch.leases[id] = leaseEpoch }
        let epoch = generation
        writeStarted()
        // Its customers stay in memory until the batch is written or refused (World+Eviction).
        let customersWritten = writing(batch)
        defer {
            decided.forget(batch)
            residency.written(customersWritten)
            writeEnded()
        }
        let reservation = announce ? env.feed.reserve(world: id, batch.transactions) : nil
        do {
            if !batch.events.isEmpty { try await prepareNotifications(&batch) }
            // Another write failed meanwhile: this batch left memory with the rest and may rest on it.
            try checkGeneration(epoch)
            try await env.database.write(batch)
            if !batch.notifications.isEmpty { env.outbox.signal() }
        } catch {
            env.feed.abandon(reservation)
            if error is LeaseLost { env.ownership?.markLost(id, epoch: leaseEpoch) }
            if generation == epoch { discardMemory() }
            throw error
        }
        env.feed.publish(reservation, batch.transactions)
        if announce { env.feed.announce(world: id, subscriptions: batch.subscriptions, besides: batch.transactions) }
        for customer in batch.customers { unwrittenCustomers.remove(customer.name) }
        for copy in batch.appTransactions { unwrittenAppTransactions.remove(CustomerKey(bundleId: copy.bundleId, customer: copy.customer)) }
        evictIdleCustomersIfNeeded()
    }
}

/// What a world decided in batches still being written (`World.decided`), kept as values.
struct DecidedValues: Sendable {
    var payloads: [Int64: TransactionPayload] = [:]
    var chains: [Int64: SubscriptionChain] = [:]

    /// The batch was written or refused: its notifications are made.
    mutating func forget(_ batch: WriteBatch) {
        for record in batch.transactions { payloads[record.seq] = nil }
        for record in batch.subscriptions { chains[record.version] = nil }
    }
}
