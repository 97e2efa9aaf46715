import StoreStorage

/// One family-shared copy: which purchase it copies, and the member's own transaction.
struct FamilyCopy: Codable, Sendable, Equatable {
    var member: String
    var bundleId: String
    /// The purchaser and the transaction copied.
    var sourceCustomer: String
    var sourceId: Int64
    var sourceOriginalId: Int64
    /// The member's transaction and its own original transaction (the member's copy chain).
    var copyId: Int64
    var copyOriginalId: Int64

    static let recordKind = "family_copy"
}

/// A world's Family Sharing state in memory: who is in which family group, and every copy made,
/// so the purchase and renewal hooks (which cannot wait) can share and revoke at once.
/// The truth is in the world's records (kinds `family` and `family_copy`); this mirrors it.
struct FamilyState: Sendable {
    static let membershipKind = "family"

    var loaded = false
    /// Customer → family group.
    var groupOf: [String: String] = [:]
    /// Purchaser's transaction ID → its copies.
    var copiesBySource: [Int64: [FamilyCopy]] = [:]
    /// The latest known row of each copy, to revoke it without a read.
    var copyRecords: [Int64: TransactionRecord] = [:]
    /// "member␟bundle␟purchaser original ID" → the member's copy-chain original ID.
    var copyChains: [String: Int64] = [:]
    /// A member's copy-chain original ID → the purchaser's original ID it mirrors (the renewal
    /// info of the member's notifications is the purchaser's chain as the member sees it).
    var sourceOfCopyChain: [Int64: Int64] = [:]

    func members(of group: String) -> [String] {
        groupOf.filter { $0.value == group }.map(\.key).sorted()
    }

    static func chainKey(member: String, bundleId: String, sourceOriginalId: Int64) -> String {
        "\(member)\u{1F}\(bundleId)\u{1F}\(sourceOriginalId)"
    }

    mutating func add(_ copy: FamilyCopy, record: TransactionRecord) {
        copiesBySource[copy.sourceId, default: []].append(copy)
        copyRecords[copy.copyId] = record
        copyChains[Self.chainKey(member: copy.member, bundleId: copy.bundleId, sourceOriginalId: copy.sourceOriginalId)] = copy.copyOriginalId
        sourceOfCopyChain[copy.copyOriginalId] = copy.sourceOriginalId
    }

    var allCopies: [FamilyCopy] { copiesBySource.values.flatMap { $0 } }
}
