import Synchronization

/// Server API keys revoked while this process runs. The gateway caches keys it has seen (keys
/// never change in place), so a revocation must reach that cache as well as the database.
/// One per store (`AppStore.revokedKeys`), nothing process-wide.
final class APIKeyRevocations: Sendable {
    private let revoked = Mutex<Set<String>>([])

    func revoke(_ keyId: String) {
        _ = revoked.withLock { $0.insert(keyId) }
    }

    func isRevoked(_ keyId: String) -> Bool {
        revoked.withLock { $0.contains(keyId) }
    }
}
