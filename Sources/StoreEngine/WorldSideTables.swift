import Synchronization

/// In-memory state the offer and Family Sharing rules keep per world, beside the `World` actor
/// (whose stored properties belong to the engine core): family membership and copies, which the
/// synchronous purchase hooks must read without waiting, and claims on nonces and offer codes
/// that are being redeemed, so two requests interleaving at an `await` cannot both use them.
///
/// Entries are keyed by the actor's identity and hold it weakly, so a world that is deleted (or
/// a store that is closed) leaves nothing behind that a new world could inherit.
final class WorldSideTables: Sendable {
    static let shared = WorldSideTables()

    struct Entry {
        weak var owner: World?
        var family = FamilyState()
        /// Claim key → how many requests hold it.
        var claims: [String: Int] = [:]
        /// Offer codes read or written so far, "bundle␟CODE" → code: redemption counts change here
        /// first, so concurrent redemptions never lose an update.
        var offerCodes: [String: OfferCode] = [:]
    }

    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    func with<T: Sendable>(_ world: World, _ body: (inout Entry) throws -> T) rethrows -> T {
        let id = ObjectIdentifier(world)
        return try entries.withLock { table in
            if table[id]?.owner !== world {
                table = table.filter { $0.value.owner != nil }
                table[id] = Entry(owner: world)
            }
            return try body(&table[id]!)
        }
    }

    /// Forgets a world's state (after a reset wiped its records).
    func forget(_ world: World) {
        _ = entries.withLock { $0.removeValue(forKey: ObjectIdentifier(world)) }
    }
}

extension World {
    var family: FamilyState {
        get { WorldSideTables.shared.with(self) { $0.family } }
    }

    func updateFamily<T: Sendable>(_ change: (inout FamilyState) throws -> T) rethrows -> T {
        try WorldSideTables.shared.with(self) { try change(&$0.family) }
    }

    /// Takes a claim unless `limit` holders have it already; false when the limit is reached.
    func claim(_ key: String, limit: Int = 1) -> Bool {
        WorldSideTables.shared.with(self) { entry in
            let held = entry.claims[key, default: 0]
            guard held < limit else { return false }
            entry.claims[key] = held + 1
            return true
        }
    }

    func withOfferCodes<T: Sendable>(_ body: (inout [String: OfferCode]) throws -> T) rethrows -> T {
        try WorldSideTables.shared.with(self) { try body(&$0.offerCodes) }
    }

    func release(_ key: String) {
        WorldSideTables.shared.with(self) { entry in
            let held = entry.claims[key, default: 0] - 1
            entry.claims[key] = held > 0 ? held : nil
        }
    }
}
