/// One subscription: its environment and original transaction ID, the key most ledger tables share.
struct ChainKey: Hashable, Sendable {
    var environment: String
    var original: String
}

/// A stored event as the ledger needs to know it: whether it exists, and whether it has its customer.
struct EventKey: Decodable, Sendable {
    var id: String
    var environment: String
    var originalTransactionId: String?
    var appUserId: String?
}

/// What one write will read, named before it runs, so that a batch of writes loads it all in a
/// few statements (`LedgerStore.load`).
struct LedgerKeys: Sendable {
    var notifications: [String] = []
    var chains: [ChainKey] = []
    /// `appAccountToken`s, lowercased.
    var tokens: [String] = []
    var customers: [String] = []
}

/// One write transaction's view of the ledger: what it reads is loaded once (in bulk for the keys
/// a batch names, else key by key on first use) and then served from memory, with this
/// transaction's own changes in it; what it writes is kept and saved by `flush`, several rows
/// per statement. A batch of notifications costs a few dozen statements instead of a few dozen
/// each (#33). The rules stay in `LedgerWriter`; this type only remembers and saves.
///
/// Not thread-safe, and never shared: one transaction's body uses it from start to `flush`.
final class LedgerStore {
    let store: BackendTransaction

    private var seen: [String: Bool] = [:]
    /// Every transaction of each subscription loaded, oldest purchase first.
    private var chains: [ChainKey: [TransactionRow]] = [:]
    private var renewals: [ChainKey: RenewalRow?] = [:]
    private var links: [ChainKey: LinkRow?] = [:]
    private var aliases: [String: AliasRow?] = [:]
    private var customers: [String: Bool] = [:]
    private var cursors: [String: CursorRow?] = [:]
    /// Each loaded subscription's event IDs; `unowned` holds those with stored events lacking a customer.
    private var eventIds: [ChainKey: Set<String>] = [:]
    private var unowned: Set<ChainKey> = []
    private var lastSeq: Int64?

    private var newNotifications: [NotificationRow] = []
    private var newCustomers: [CustomerRow] = []
    private var newAliases: [AliasRow] = []
    private var newLinks: [LinkRow] = []
    private var changedTransactions: [ChainKey: [String: TransactionRow]] = [:]
    private var changedRenewals: [ChainKey: RenewalRow] = [:]
    private var changedCursors: [String: CursorRow] = [:]
    private var newEvents: [EventRow] = []
    private var newOutbox: [OutboxRow] = []

    init(_ store: BackendTransaction) {
        self.store = store
    }

    // MARK: loading

    /// Loads, in a few statements, what the writes with these keys will read.
    func load(_ keys: [LedgerKeys]) async throws {
        let uuids = keys.flatMap(\.notifications).filter { seen[$0] == nil }
        for uuid in uuids { seen[uuid] = false }
        for uuid in try await store.seenNotifications(uuids) { seen[uuid] = true }
        try await loadChains(keys.flatMap(\.chains))
        let tokens = keys.flatMap(\.tokens).filter { aliases[$0] == nil }
        for token in tokens { aliases[token] = .some(nil) }
        for alias in try await store.aliases(tokens: tokens) { aliases[alias.appAccountToken] = alias }
        // The customers these writes may link to: named ones, owners of the subscriptions, and
        // each token's user (or the token itself, for a token nobody claimed).
        var users = keys.flatMap(\.customers) + keys.flatMap(\.chains).compactMap { links[$0]??.appUserId }
        users += tokens.map { aliases[$0]??.appUserId ?? $0 }
        try await loadCustomers(users)
    }

    private func loadChains(_ keys: [ChainKey]) async throws {
        let missing = Array(Set(keys.filter { chains[$0] == nil }))
        guard !missing.isEmpty else { return }
        for key in missing {
            chains[key] = []
            renewals[key] = .some(nil)
            links[key] = .some(nil)
            eventIds[key] = []
        }
        for row in try await store.transactions(chains: missing) {
            chains[ChainKey(environment: row.environment, original: row.originalTransactionId), default: []].append(row)
        }
        for key in missing { chains[key]?.sort { $0.purchaseMs < $1.purchaseMs } }
        for row in try await store.renewals(chains: missing) {
            renewals[ChainKey(environment: row.environment, original: row.originalTransactionId)] = row
        }
        for row in try await store.links(chains: missing) {
            links[ChainKey(environment: row.environment, original: row.originalTransactionId)] = row
        }
        for event in try await store.events(chains: missing) {
            let key = ChainKey(environment: event.environment, original: event.originalTransactionId ?? "")
            eventIds[key, default: []].insert(event.id)
            if event.appUserId == nil { unowned.insert(key) }
        }
    }

    private func loadCustomers(_ users: [String]) async throws {
        let missing = users.filter { customers[$0] == nil }
        for user in missing { customers[user] = false }
        for user in try await store.customers(missing) { customers[user] = true }
    }

    private func chain(_ key: ChainKey) async throws -> [TransactionRow] {
        if let chain = chains[key] { return chain }
        try await loadChains([key])
        return chains[key] ?? []
    }

    // MARK: notifications

    func notificationSeen(_ uuid: String) async throws -> Bool {
        if seen[uuid] == nil { try await load([LedgerKeys(notifications: [uuid])]) }
        return seen[uuid] ?? false
    }

    func insert(_ row: NotificationRow) {
        seen[row.notificationUUID] = true
        newNotifications.append(row)
    }

    // MARK: transactions and renewal info

    func transaction(environment: String, id: String, original: String) async throws -> TransactionRow? {
        try await chain(ChainKey(environment: environment, original: original)).first { $0.transactionId == id }
    }

    /// The subscription's transaction purchased last before `purchaseMs`.
    func previousTransaction(environment: String, original: String, before purchaseMs: Int64) async throws -> TransactionRow? {
        try await chain(ChainKey(environment: environment, original: original)).last { $0.purchaseMs < purchaseMs }
    }

    func latestTransaction(environment: String, original: String) async throws -> TransactionRow? {
        try await chain(ChainKey(environment: environment, original: original)).last
    }

    /// Stores `row` in place of the same transaction's older signing, if any.
    func replace(_ row: TransactionRow) async throws {
        let key = ChainKey(environment: row.environment, original: row.originalTransactionId)
        var chain = try await chain(key)
        chain.removeAll { $0.transactionId == row.transactionId }
        // After every transaction purchased at the same moment or before, as the database orders them.
        chain.insert(row, at: chain.firstIndex { $0.purchaseMs > row.purchaseMs } ?? chain.endIndex)
        chains[key] = chain
        changedTransactions[key, default: [:]][row.transactionId] = row
    }

    func renewal(environment: String, original: String) async throws -> RenewalRow? {
        let key = ChainKey(environment: environment, original: original)
        _ = try await chain(key)
        return renewals[key] ?? nil
    }

    func replace(_ row: RenewalRow) {
        let key = ChainKey(environment: row.environment, original: row.originalTransactionId)
        renewals[key] = row
        changedRenewals[key] = row
    }

    // MARK: customers

    func alias(token: String) async throws -> AliasRow? {
        if aliases[token] == nil { try await load([LedgerKeys(tokens: [token])]) }
        return aliases[token] ?? nil
    }

    func insert(_ row: AliasRow) {
        aliases[row.appAccountToken] = row
        newAliases.append(row)
    }

    func link(environment: String, original: String) async throws -> LinkRow? {
        let key = ChainKey(environment: environment, original: original)
        _ = try await chain(key)
        return links[key] ?? nil
    }

    /// Links the subscription, and gives its events made before the link their customer.
    func insert(_ row: LinkRow) {
        let key = ChainKey(environment: row.environment, original: row.originalTransactionId)
        links[key] = row
        newLinks.append(row)
        for index in newEvents.indices where newEvents[index].appUserId == nil
            && newEvents[index].environment == row.environment && newEvents[index].originalTransactionId == row.originalTransactionId {
            newEvents[index].appUserId = row.appUserId
        }
    }

    func customerExists(_ appUserId: String) async throws -> Bool {
        if customers[appUserId] == nil { try await loadCustomers([appUserId]) }
        return customers[appUserId] ?? false
    }

    func insert(_ row: CustomerRow) {
        customers[row.appUserId] = true
        newCustomers.append(row)
    }

    func cursor(bundleId: String, environment: String) async throws -> CursorRow? {
        let key = "\(bundleId)|\(environment)"
        if let cursor = cursors[key] { return cursor }
        let cursor = try await store.cursor(bundleId: bundleId, environment: environment)
        cursors[key] = cursor
        return cursor
    }

    func save(_ row: CursorRow) {
        let key = "\(row.bundleId)|\(row.environment)"
        cursors[key] = row
        changedCursors[key] = row
    }

    // MARK: events and deliveries

    func eventExists(_ id: String, environment: String, original: String) async throws -> Bool {
        let key = ChainKey(environment: environment, original: original)
        _ = try await chain(key)
        return eventIds[key]?.contains(id) ?? false
    }

    /// The number the next event takes: one more than the last, stored or made here.
    func nextEventSeq() async throws -> Int64 {
        let last: Int64
        if let lastSeq { last = lastSeq } else { last = try await store.lastEventSeq() }
        let next = last + 1
        lastSeq = next
        return next
    }

    func insert(_ row: EventRow) {
        eventIds[ChainKey(environment: row.environment, original: row.originalTransactionId ?? ""), default: []].insert(row.id)
        newEvents.append(row)
    }

    func insert(_ row: OutboxRow) {
        newOutbox.append(row)
    }

    // MARK: saving

    /// Writes everything this transaction changed, several rows per statement, and forgets it.
    func flush() async throws {
        try await store.insert(newNotifications, into: "bk_notifications")
        try await store.insert(newCustomers, into: "bk_customers")
        try await store.insert(newAliases, into: "bk_aliases")
        try await store.insert(newLinks, into: "bk_links")
        try await store.insert(changedTransactions.values.flatMap(\.values), into: "bk_transactions",
                               replacingOn: ["environment", "transactionId"])
        try await store.insert(Array(changedRenewals.values), into: "bk_renewals", replacingOn: ["environment", "originalTransactionId"])
        try await store.insert(Array(changedCursors.values), into: "bk_cursors", replacingOn: ["bundleId", "environment"])
        try await store.insert(newEvents, into: "bk_events")
        try await store.insert(newOutbox, into: "bk_outbox")
        try await store.ownEvents(of: newLinks.filter {
            unowned.contains(ChainKey(environment: $0.environment, original: $0.originalTransactionId))
        })
        for link in newLinks { unowned.remove(ChainKey(environment: link.environment, original: link.originalTransactionId)) }
        newNotifications = []
        newCustomers = []
        newAliases = []
        newLinks = []
        changedTransactions = [:]
        changedRenewals = [:]
        changedCursors = [:]
        newEvents = []
        newOutbox = []
    }
}
