import Foundation
import Synchronization
import StoreModel

/// The hosted stores of the process, one per distinct `.storekit` text: the first session of a
/// catalog starts its store (tens of milliseconds), later ones only add a world to it.
final class StoreHosting: Sendable {
    static let shared = StoreHosting()

    private let stores = Mutex<[String: Task<HostedStore, any Error>]>([:])

    /// The store for this catalog, started on first use. A failed start is forgotten, so the
    /// next session tries again.
    func store(catalogJSON: String, catalog: Catalog) async throws -> HostedStore {
        let task = stores.withLock { stores -> Task<HostedStore, any Error> in
            if let running = stores[catalogJSON] { return running }
            let task = Task { try await HostedStore.start(catalogJSON: catalogJSON, catalog: catalog) }
            stores[catalogJSON] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            stores.withLock { if $0[catalogJSON] == task { $0[catalogJSON] = nil } }
            throw error
        }
    }

    /// Stops every hosted store and removes its folder. Sessions still alive stop working, so
    /// call it only when no test runs any more (a test process's end does the same by itself).
    func stopAll() async {
        let tasks = stores.withLock { stores -> [Task<HostedStore, any Error>] in
            defer { stores.removeAll() }
            return Array(stores.values)
        }
        for task in tasks {
            if let store = try? await task.value { await store.stop() }
        }
    }
}
