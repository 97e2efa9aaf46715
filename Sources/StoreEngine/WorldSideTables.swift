import Synchronization

/// In-memory state the offer and Family Sharing rules keep per world, beside the `World` actor
/// (whose stored properties belong to the engine core): family membership and copies, which the
/// synchronous purchase hooks must read without waiting, and claims on nonces and offer codes
/// that are being redeemed, so two requests interleaving at an `await` cannot both use them.
///
/// Each `World` owns its own table (nothing process-wide), so two stores in one process, or a
/// deleted world and a new one of the same name, never share an entry.
final class WorldSideTables: Sendable {
    struct Entry {
        var family = FamilyState()
        /// Claim key → how many requests hold it.
        var claims: [String: Int] = [:]
        /// Offer codes read or written so far, "bundle␟CODE" → code: redemption counts change here
        /// first, so concurrent redemptions never lose an update.
        var offerCodes: [String: OfferCode] = [:]
    }

    private let entry = Mutex(Entry())

    func with<T: Sendable>(_ body: (inout Entry) throws -> T) rethrows -> T {
        try entry.withLock { try body(&$0) }
    }

    /// Forgets the world's state (after a reset wiped its records).
    func forget() {
        entry.withLock { $0 = Entry() }
    }

    /// Forgets what is read back from the database (families, offer-code counts) and keeps the
    /// claims of requests in flight: the world discarded its memory after a failed write.
    func forgetState() {
        entry.withLock { entry in
            entry.family = FamilyState()
            entry.offerCodes = [:]
        }
    }
}

extension World {
    var family: FamilyState {
        get { sideTables.with { $0.family } }
    }

    func updateFamily<T: Sendable>(_ change: (inout FamilyState) throws -> T) rethrows -> T {
        try sideTables.with { try change(&$0.family) }
    }

    /// Takes a claim unless `limit` holders have it already; false when the limit is reached.
    func claim(_ key: String, limit: Int = 1) -> Bool {
        sideTables.with { entry in
            let held = entry.claims[key, default: 0]
            guard held < limit else { return false }
            entry.claims[key] = held + 1
            return true
        }
    }

    func withOfferCodes<T: Sendable>(_ body: (inout [String: OfferCode]) throws -> T) rethrows -> T {
        try sideTables.with { try body(&$0.offerCodes) }
    }

    func release(_ key: String) {
        sideTables.with { entry in
            let held = entry.claims[key, default: 0] - 1
            entry.claims[key] = held > 0 ? held : nil
        }
    }
}
