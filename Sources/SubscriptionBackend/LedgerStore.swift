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

/// One app's cursor in one environment.
struct CursorKey: Hashable, Sendable {
    var bundleId: String
    var environment: String
    var key: String { "\(bundleId)|\(environment)" }
}

/// What one write will read, named before it runs, so that a batch of writes loads it all in a
/// few statements (`LedgerStore.load`).
struct LedgerKeys: Sendable {
    var notifications: [String] = []
    var chains: [ChainKey] = []
    /// `appAccountToken`s, lowercased.
    var tokens: [String] = []
    var customers: [String] = []
    var cursors: [CursorKey] = []
}

/// One write transaction's view of the ledger: what it reads is loaded once (in bulk for the keys
/// a batch names, else key by key on first use) and then served from memory, with this
/// transaction's own changes in it; what it writes is kept and saved by `flush`, several rows
/// per statement. A batch of notifications costs about ten statements however many it holds,
/// where each notification cost about fifteen of its own (#33). The rules stay in
/// `LedgerWriter`; this type only remembers and saves.
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
    /// Rows the database holds (not only this transaction): saved with an upsert, the others
    /// with a plain insert, which SQLite parses and runs faster.
    private var storedTransactions: Set<String> = []
    private var storedRenewals: Set<ChainKey> = []
    private var storedCursors: Set<String> = []

    private var newNotifications: [NotificationRow] = []
    private var newCustomers: [CustomerRow] = []
    private var newAliases: [AliasRow] = []
    private var newLinks: [LinkRow] = []
    /// Links moved to another customer (a transfer, a relink after a deletion), saved with an upsert.
    private var movedLinks: [ChainKey: LinkRow] = [:]
    /// Anonymous customers merged into identified ones, in order; run after every other write.
    private var merges: [(from: String, into: String)] = []
    private var newUserAliases: [UserAliasRow] = []
    private var changedTransactions: [ChainKey: [String: TransactionRow]] = [:]
    private var changedRenewals: [ChainKey: RenewalRow] = [:]
    private var changedCursors: [String: CursorRow] = [:]
    private var newEvents: [EventRow] = []
    private var newOutbox: [OutboxRow] = []
    private var newRefundRequests: [RefundRequestRow] = []
    private var refundDecisions: [(environment: String, transactionId: String, outcome: String, atMs: Int64)] = []

    init(_ store: BackendTransaction) {
        self.store = store
    }

    /// Runs `body` on a new view of `store`'s ledger, loading `keys` first and saving after.
    static func writing<T>(on store: BackendTransaction, keys: [LedgerKeys],
                           _ body: (LedgerStore) async throws -> T) async throws -> T {
        let ledger = LedgerStore(store)
        try await ledger.load(keys)
        let result = try await body(ledger)
        try await ledger.flush()
        return result
    }

    // MARK: loading

    /// Loads, in a few statements, what the writes with these keys will read. Independent reads
    /// run at once: each statement is a round trip (a thread hop on SQLite, a network one on
    /// PostgreSQL), and waiting for them one by one was most of a batch's time.
    func load(_ keys: [LedgerKeys]) async throws {
        let uuids = Array(Set(keys.flatMap(\.notifications).filter { seen[$0] == nil }))
        let tokens = Array(Set(keys.flatMap(\.tokens).filter { aliases[$0] == nil }))
        let cursorKeys = Array(Set(keys.flatMap(\.cursors).filter { cursors[$0.key] == nil }))
        let store = store
        async let seenRows = store.seenNotifications(uuids)
        async let aliasRows = store.aliases(tokens: tokens)
        async let cursorRows = Self.cursors(cursorKeys, store)
        let known = lastSeq
        async let last = known == nil ? store.lastEventSeq() : known ?? 0
        // The customers these writes may name or link to: those named, and each token (a token
        // nobody claimed becomes its own customer).
        let users = Array(Set(keys.flatMap(\.customers) + tokens).filter { customers[$0] == nil })
        async let knownUsers = store.customers(users)
        try await loadChains(keys.flatMap(\.chains))
        for uuid in uuids { seen[uuid] = false }
        for uuid in try await seenRows { seen[uuid] = true }
        for token in tokens { aliases[token] = .some(nil) }
        for alias in try await aliasRows { aliases[alias.appAccountToken] = alias }
        for (key, cursor) in try await cursorRows {
            cursors[key] = cursor
            if cursor != nil { storedCursors.insert(key) }
        }
        lastSeq = try await last
        for user in users { customers[user] = false }
        for user in try await knownUsers { customers[user] = true }
        // Owners of links and users of tokens are customers: `LedgerWriter` records the customer
        // with every link, and a token is claimed only by a customer it has just seen.
        for user in keys.flatMap(\.chains).compactMap({ links[$0]??.appUserId }) { customers[user] = true }
        for alias in try await aliasRows { customers[alias.appUserId] = true }
    }

    private static func cursors(_ keys: [CursorKey], _ store: BackendTransaction) async throws -> [(String, CursorRow?)] {
        var found: [(String, CursorRow?)] = []
        for key in keys { found.append((key.key, try await store.cursor(bundleId: key.bundleId, environment: key.environment))) }
        return found
    }

    private func loadChains(_ keys: [ChainKey]) async throws {
        let missing = Array(Set(keys.filter { chains[$0] == nil }))
        guard !missing.isEmpty else { return }
        let store = store
        async let transactionRows = store.transactions(chains: missing)
        async let renewalRows = store.renewals(chains: missing)
        async let linkRows = store.links(chains: missing)
        async let eventRows = store.events(chains: missing)
        for key in missing {
            chains[key] = []
            renewals[key] = .some(nil)
            links[key] = .some(nil)
            eventIds[key] = []
        }
        for row in try await transactionRows {
            storedTransactions.insert(Self.storedKey(row))
            chains[ChainKey(environment: row.environment, original: row.originalTransactionId), default: []].append(row)
        }
        for key in missing { chains[key]?.sort { $0.purchaseMs < $1.purchaseMs } }
        for row in try await renewalRows {
            storedRenewals.insert(ChainKey(environment: row.environment, original: row.originalTransactionId))
            renewals[ChainKey(environment: row.environment, original: row.originalTransactionId)] = row
        }
        for row in try await linkRows {
            links[ChainKey(environment: row.environment, original: row.originalTransactionId)] = row
        }
        for event in try await eventRows {
            let key = ChainKey(environment: event.environment, original: event.originalTransactionId ?? "")
            eventIds[key, default: []].insert(event.id)
            if event.appUserId == nil { unowned.insert(key) }
        }
    }

    /// A transaction's key in `storedTransactions`: its table's primary key.
    private static func storedKey(_ row: TransactionRow) -> String { "\(row.environment)|\(row.transactionId)" }

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

    /// Every transaction of the subscription (or one-time purchase) known so far, this transaction's included.
    func transactions(environment: String, original: String) async throws -> [TransactionRow] {
        try await chain(ChainKey(environment: environment, original: original))
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

    /// Moves the subscription to another customer; its events so far stay with the one they happened to.
    func move(_ row: LinkRow) {
        let key = ChainKey(environment: row.environment, original: row.originalTransactionId)
        links[key] = row
        if let index = newLinks.firstIndex(where: { $0.environment == row.environment && $0.originalTransactionId == row.originalTransactionId }) {
            newLinks[index] = row
        } else {
            movedLinks[key] = row
        }
    }

    /// Merges customer `from` (anonymous) into `into`: every purchase, event, token, attribute and
    /// alias of `from` becomes `into`'s, and `from` becomes `into`'s alias. Saved last in `flush`.
    func merge(from: String, into: String) {
        for (key, link) in links where link?.appUserId == from {
            links[key] = LinkRow(environment: key.environment, originalTransactionId: key.original, bundleId: link?.bundleId ?? "", appUserId: into)
        }
        for (token, alias) in aliases where alias?.appUserId == from { aliases[token] = AliasRow(appAccountToken: token, appUserId: into) }
        for index in newEvents.indices where newEvents[index].appUserId == from { newEvents[index].appUserId = into }
        // Its row stays until the merge runs at the end of `flush`; marked known so nothing inserts it again.
        customers[from] = true
        merges.append((from, into))
    }

    /// The customer an ID the app names stands for: itself, unless it was merged into or logged in
    /// to another (an alias), in this transaction or before.
    func resolve(_ id: String) async throws -> String {
        if let merged = merges.last(where: { $0.from == id }) { return try await resolve(merged.into) }
        if let alias = newUserAliases.last(where: { $0.alias == id }) { return alias.appUserId }
        if try await customerExists(id) { return id }
        return try await store.resolve(id) ?? id
    }

    /// Names `appUserId` by another ID too (the log in of an anonymous device ID into a known customer).
    func insert(_ row: UserAliasRow) {
        newUserAliases.append(row)
    }

    func customerExists(_ appUserId: String) async throws -> Bool {
        if customers[appUserId] == nil { try await load([LedgerKeys(customers: [appUserId])]) }
        return customers[appUserId] ?? false
    }

    func insert(_ row: CustomerRow) {
        customers[row.appUserId] = true
        newCustomers.append(row)
    }

    func cursor(bundleId: String, environment: String) async throws -> CursorRow? {
        let key = CursorKey(bundleId: bundleId, environment: environment)
        if cursors[key.key] == nil { try await load([LedgerKeys(cursors: [key])]) }
        return cursors[key.key] ?? nil
    }

    func save(_ row: CursorRow) {
        let key = CursorKey(bundleId: row.bundleId, environment: row.environment).key
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
        if lastSeq == nil { try await load([]) }
        let next = (lastSeq ?? 0) + 1
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

    // MARK: refund requests

    func insert(_ row: RefundRequestRow) {
        newRefundRequests.append(row)
    }

    /// The App Store's decision on the transaction's undecided refund requests, saved after
    /// this transaction's new requests.
    func decideRefundRequests(environment: String, transactionId: String, outcome: String, atMs: Int64) {
        refundDecisions.append((environment, transactionId, outcome, atMs))
    }

    // MARK: saving

    /// Writes everything this transaction changed, several rows per statement, and forgets it.
    func flush() async throws {
        let transactions = changedTransactions.values.flatMap(\.values)
        let storedTransaction = { (row: TransactionRow) in self.storedTransactions.contains(Self.storedKey(row)) }
        let (newTransactions, replacedTransactions) = (transactions.filter { !storedTransaction($0) }, transactions.filter(storedTransaction))
        let newRenewals = changedRenewals.filter { !storedRenewals.contains($0.key) }.map(\.value)
        let replacedRenewals = changedRenewals.filter { storedRenewals.contains($0.key) }.map(\.value)
        let newCursors = changedCursors.filter { !storedCursors.contains($0.key) }.map(\.value)
        let replacedCursors = changedCursors.filter { storedCursors.contains($0.key) }.map(\.value)
        let (notifications, customers, aliases, links, events, outbox) = (newNotifications, newCustomers, newAliases, newLinks, newEvents, newOutbox)
        let refundRequests = newRefundRequests
        let store = store
        // Each table's rows in statements of their own, all at once (see `load`); a failure
        // fails the transaction, which is then rolled back whole.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.insert(notifications, into: "bk_notifications") }
            group.addTask { try await store.insert(customers, into: "bk_customers") }
            group.addTask { try await store.insert(aliases, into: "bk_aliases") }
            group.addTask { try await store.insert(links, into: "bk_links") }
            group.addTask { try await store.insert(newTransactions, into: "bk_transactions") }
            group.addTask { try await store.insert(replacedTransactions, into: "bk_transactions", replacingOn: ["environment", "transactionId"]) }
            group.addTask { try await store.insert(newRenewals, into: "bk_renewals") }
            group.addTask { try await store.insert(replacedRenewals, into: "bk_renewals", replacingOn: ["environment", "originalTransactionId"]) }
            group.addTask { try await store.insert(newCursors, into: "bk_cursors") }
            group.addTask { try await store.insert(replacedCursors, into: "bk_cursors", replacingOn: ["bundleId", "environment"]) }
            group.addTask { try await store.insert(events, into: "bk_events") }
            group.addTask { try await store.insert(outbox, into: "bk_outbox") }
            group.addTask { try await store.insert(refundRequests, into: "bk_refund_requests") }
            try await group.waitForAll()
        }
        for decision in refundDecisions {
            try await store.decideRefundRequests(environment: decision.environment, transactionId: decision.transactionId,
                                                 outcome: decision.outcome, atMs: decision.atMs)
        }
        try await store.ownEvents(of: newLinks.filter {
            unowned.contains(ChainKey(environment: $0.environment, original: $0.originalTransactionId))
        })
        try await store.insert(Array(movedLinks.values), into: "bk_links", replacingOn: ["environment", "originalTransactionId"])
        try await store.insert(newUserAliases, into: "bk_user_aliases", replacingOn: ["alias"])
        for merge in merges { try await store.mergeCustomer(from: merge.from, into: merge.into) }
        for row in transactions { storedTransactions.insert(Self.storedKey(row)) }
        storedRenewals.formUnion(changedRenewals.keys)
        storedCursors.formUnion(changedCursors.keys)
        for link in newLinks { unowned.remove(ChainKey(environment: link.environment, original: link.originalTransactionId)) }
        newNotifications = []
        newCustomers = []
        newAliases = []
        newLinks = []
        movedLinks = [:]
        merges = []
        newUserAliases = []
        changedTransactions = [:]
        changedRenewals = [:]
        changedCursors = [:]
        newEvents = []
        newOutbox = []
        newRefundRequests = []
        refundDecisions = []
    }
}
