import StoreModel
import StoreStorage

/// The store's in-memory view of each customer's purchases, and the counters for new identifiers.
///
/// Checking a rule and recording its outcome happen in one actor turn, so two concurrent purchases
/// of the same non-consumable can't both pass. A customer's history is read from the database the
/// first time it is needed and kept current afterwards.
actor CustomerLedger {
    struct Key: Hashable, Sendable {
        var world: String
        var bundleId: String
        var customer: String
    }

    private let database: StoreDatabase
    private var histories: [Key: [OwnedTransaction]] = [:]
    private var loading: [Key: Task<[OwnedTransaction], any Error>] = [:]
    private var customers: [String: CustomerRecord] = [:]
    private var appTransactions: [Key: AppTransactionRecord] = [:]
    private var lastTransactionId: Int64
    private var lastSeq: Int64

    /// Transaction IDs start where Apple's production IDs do, so they look familiar in logs.
    static let firstTransactionId: Int64 = 2_000_000_000_000_000

    init(database: StoreDatabase, lastTransactionId: Int64, lastSeq: Int64) {
        self.database = database
        self.lastTransactionId = max(lastTransactionId, Self.firstTransactionId)
        self.lastSeq = lastSeq
    }

    func history(_ key: Key) async throws -> [OwnedTransaction] {
        if let known = histories[key] { return known }
        if let task = loading[key] { return try await task.value }
        let database = self.database
        let task = Task { () throws -> [OwnedTransaction] in
            try await database.transactions(world: key.world, bundleId: key.bundleId, customer: key.customer)
                .compactMap(OwnedTransaction.init(record:))
        }
        loading[key] = task
        defer { loading[key] = nil }
        let loaded = try await task.value
        if histories[key] == nil { histories[key] = loaded }
        return histories[key] ?? loaded
    }

    /// Runs `decide` against the customer's current history and records what it returns, all in
    /// one turn. `decide` gets `identifiers` fresh (transaction ID, change number) pairs to use if it
    /// accepts; unused ones leave gaps, as Apple's IDs have.
    func record<Result: Sendable>(
        _ key: Key, identifiers: Int,
        _ decide: @Sendable (_ history: [OwnedTransaction], _ ids: [(id: Int64, seq: Int64)]) throws -> (Result, [OwnedTransaction])
    ) async throws -> Result {
        _ = try await history(key)
        var ids: [(id: Int64, seq: Int64)] = []
        for _ in 0..<identifiers {
            lastTransactionId += 1
            lastSeq += 1
            ids.append((lastTransactionId, lastSeq))
        }
        let (result, added) = try decide(histories[key] ?? [], ids)
        histories[key, default: []].append(contentsOf: added)
        return result
    }

    /// Undoes `record` when the write that should have made it durable failed.
    func forget(_ key: Key, transactionIds: Set<Int64>) {
        histories[key]?.removeAll { transactionIds.contains($0.id) }
    }

    func update(_ key: Key, _ change: (inout OwnedTransaction) -> Void, where match: (OwnedTransaction) -> Bool) {
        guard var list = histories[key] else { return }
        for index in list.indices where match(list[index]) { change(&list[index]) }
        histories[key] = list
    }

    func nextSeq() -> Int64 {
        lastSeq += 1
        return lastSeq
    }

    func nextIdentifier() -> Int64 {
        lastTransactionId += 1
        return lastTransactionId
    }
}

extension OwnedTransaction {
    init?(record: TransactionRecord) {
        guard let kind = ProductKind(rawValue: record.productKind) else { return nil }
        self.init(
            id: record.id, originalId: record.originalId, productId: record.productId, kind: kind,
            groupId: record.groupId, purchaseMs: record.purchaseMs, expiresMs: record.expiresMs,
            revokedMs: record.revokedMs, finished: record.finished)
    }
}

/// Accounts and app copies, kept beside the purchase histories so that creating them on first use
/// happens once even under concurrent requests.
extension CustomerLedger {
    func customer(world: String, name: String, create: @Sendable () -> CustomerRecord?) async throws -> (record: CustomerRecord, isNew: Bool)? {
        let key = "\(world)\u{1F}\(name)"
        if let known = customers[key] { return (known, false) }
        let stored = try await database.customer(world: world, name: name)
        if let known = customers[key] { return (known, false) }
        if let stored {
            customers[key] = stored
            return (stored, false)
        }
        guard let created = create() else { return nil }
        customers[key] = created
        return (created, true)
    }

    func setCustomer(_ record: CustomerRecord) {
        customers["\(record.world)\u{1F}\(record.name)"] = record
    }

    func appTransaction(_ key: Key, create: @Sendable (_ appTransactionId: String) -> AppTransactionRecord) async throws -> (record: AppTransactionRecord, isNew: Bool) {
        if let known = appTransactions[key] { return (known, false) }
        let stored = try await database.appTransaction(world: key.world, bundleId: key.bundleId, customer: key.customer)
        if let known = appTransactions[key] { return (known, false) }
        if let stored {
            appTransactions[key] = stored
            return (stored, false)
        }
        let created = create(String(nextIdentifier()))
        appTransactions[key] = created
        return (created, true)
    }

    func setAppTransaction(_ record: AppTransactionRecord) {
        appTransactions[Key(world: record.world, bundleId: record.bundleId, customer: record.customer)] = record
    }
}
