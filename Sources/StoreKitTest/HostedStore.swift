import Foundation
import Synchronization
import Logging
import StoreEngine
import StoreModel
import StoreNotifications
import StoreServer
import StoreStorage

/// A real store (`StoreHTTPServer`, the one `openstore serve` runs) in the test's own process, on
/// an ephemeral port of loopback address 127.0.0.2, selling one `.storekit` catalog from a throw-away SQLite database in
/// a temporary folder. Sessions share it, each in a world of its own, so creating a session costs
/// a world, not a store. The folder is removed when the store stops, and at the latest when the
/// process exits.
final class HostedStore: Sendable {
    /// The app every session's client buys for (the `.storekit` file names no bundle ID).
    static let bundleID = "com.openstorekit.StoreKitTest"
    static let appAppleID: Int64 = 1_000_000_001

    let store: StoreEngine.AppStore
    let port: Int
    let folder: URL
    let catalog: Catalog
    /// The server and its delivery service, in one service group.
    private let serving: Task<Void, Never>

    var url: URL { URL(string: "http://\(Self.address):\(port)")! }

    /// A loopback address of their own (all of 127.0.0.0/8 is loopback on Linux): a test that
    /// closes a port on 127.0.0.1 to see refusals never finds a session's store on it, and HTTP
    /// clients keep no connection state shared with other tests' servers.
    static let address = "127.0.0.2"
    var rootCertificateDER: Data { Data(store.authority.rootDER) }

    private init(store: StoreEngine.AppStore, port: Int, folder: URL, catalog: Catalog, serving: Task<Void, Never>) {
        self.store = store
        self.port = port
        self.folder = folder
        self.catalog = catalog
        self.serving = serving
    }

    /// Opens a store for `catalogJSON` and returns once it listens.
    static func start(catalogJSON: String, catalog: Catalog) async throws -> HostedStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openstore-sktest-\(UUID().uuidString)")
        LeftoverFolders.shared.add(folder)
        do {
            var logger = Logger(label: "StoreKitTest")
            logger.logLevel = .warning
            let database = try await StoreDatabase.open(path: folder.appendingPathComponent("store.sqlite").path, logger: logger)
            let app = StoreApp(bundleId: bundleID, appAppleId: appAppleID, environment: .sandbox, name: "StoreKitTest",
                               catalog: catalog, catalogJSON: catalogJSON)
            let store: StoreEngine.AppStore
            do {
                store = try await StoreEngine.AppStore.open(database: database, apps: [app])
            } catch {
                await database.close()
                throw error
            }
            // Delivery runs as the server's service, in its group, as `openstore serve` runs it.
            var server = StoreHTTPServer(store: store, host: address, port: 0, storePages: [])
            server.services = [NotificationDeliveryService(
                store: store, configuration: NotificationDeliveryConfiguration(timeoutSeconds: 5, pollIntervalSeconds: 0.1), logger: logger)]
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            let serving = Task { [server] in
                defer { continuation.finish() }
                try? await server.run(logger: logger) { port in continuation.yield(port) }
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                await store.close()
                throw SKTestError(.serviceUnavailable, "the in-process store could not listen on a loopback port")
            }
            return HostedStore(store: store, port: port, folder: folder, catalog: catalog, serving: serving)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            LeftoverFolders.shared.remove(folder)
            throw error
        }
    }

    /// Stops serving and delivering, closes the database and removes its folder.
    func stop() async {
        serving.cancel()
        await serving.value
        await store.close()
        try? FileManager.default.removeItem(at: folder)
        LeftoverFolders.shared.remove(folder)
    }
}

/// The hosted stores' folders, removed when the process exits (a store shared by many sessions
/// lives as long as the test process; nothing of it may outlive it).
final class LeftoverFolders: Sendable {
    static let shared: LeftoverFolders = {
        let list = LeftoverFolders()
        atexit { LeftoverFolders.shared.removeAll() }
        return list
    }()

    private let folders = Mutex<Set<URL>>([])

    func add(_ folder: URL) { folders.withLock { _ = $0.insert(folder) } }
    func remove(_ folder: URL) { folders.withLock { _ = $0.remove(folder) } }
    var all: Set<URL> { folders.withLock { $0 } }

    func removeAll() {
        let taken = folders.withLock { folders -> Set<URL> in defer { folders.removeAll() }; return folders }
        for folder in taken { try? FileManager.default.removeItem(at: folder) }
    }
}
