import StoreStorage
import Synchronization

/// Server API keys revoked while this process runs. The gateway caches keys it has seen (keys
/// never change in place), so a revocation must reach that cache as well as the database.
/// Keyed by database path: one process may open several stores (tests).
final class APIKeyRevocations: Sendable {
    static let shared = APIKeyRevocations()

    private let revoked = Mutex<Set<String>>([])

    func revoke(_ keyId: String, database: StoreDatabase) {
        _ = revoked.withLock { $0.insert(database.path + "\u{0}" + keyId) }
    }

    func isRevoked(_ keyId: String, database: StoreDatabase) -> Bool {
        revoked.withLock { $0.contains(database.path + "\u{0}" + keyId) }
    }
}
