/// A hook for test libraries that host a store per test (StoreKitTest's `SKTestSession`): asked
/// by `OpenStoreKit.connection()` after a `withConnection` scope and before the process-wide
/// connection, so app code under test reaches the store of the test it runs in without any
/// change. It must be fast (every StoreKit call asks it) and return nil when it has no answer.
extension OpenStoreKit {
    /// The hook's shape: called on every StoreKit call; returns the connection to use, or nil to fall
    /// through to the process-wide one.
    public typealias ConnectionResolver = @Sendable () -> StoreConnection?

    /// Installs the resolver (one per process: a later call replaces it; nil removes it).
    public static func setConnectionResolver(_ resolver: ConnectionResolver?) {
        resolverSlot.withLock { $0 = resolver }
    }

    /// The resolver's answer, if one is installed and it has one.
    static func resolvedConnection() -> StoreConnection? {
        resolverSlot.withLock { $0 }?()
    }

    private static let resolverSlot = LockedValue<ConnectionResolver?>(nil)
}
