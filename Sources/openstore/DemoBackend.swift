import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import StoreEngine
import StoreShared
import StoreViews
import SubscriptionBackend
import Synchronization

/// The subscription backend `serve` runs beside the demo apps, so one command shows both sides
/// of the system: a purchase on `/store` reaches the backend as a signed notification, and the
/// backend's customer info moves with the store's clock (docs/backend.md, "In one command").
///
/// Each demo app gets a Server API key of the store's `default` world, kept in
/// `DATA/backend/` (the `.p8` with mode 0600, never logged) and reused while the store still
/// knows it, so restarts do not pile up keys. The backend trusts only this store's root, calls
/// this store's Server API for reconcile, and keeps its own SQLite file in `DATA/backend/`.
final class DemoBackend: Sendable {
    private let store: AppStore
    private let settings: ServeSettings
    private let apps: [AppConfiguration]
    private let folder: URL
    private let logger: Logger
    private let http = HTTPClient(eventLoopGroupProvider: .singleton)
    /// The running backend and its database, once started.
    private let running = Mutex<(task: Task<Void, Never>?, database: BackendDatabase?)>((nil, nil))
    /// Where the backend listens, once it does (`offering` asks it there).
    private let base = Mutex<String?>(nil)

    private init(store: AppStore, settings: ServeSettings, apps: [AppConfiguration], folder: URL, logger: Logger) {
        self.store = store
        self.settings = settings
        self.apps = apps
        self.folder = folder
        self.logger = logger
    }

    /// Makes (or finds again) each demo app's Server API key before the store starts serving.
    static func prepare(store: AppStore, settings: ServeSettings, apps: [StoreApp], logger: Logger) async throws -> DemoBackend {
        let folder = URL(fileURLWithPath: settings.data).appendingPathComponent("backend")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configured: [AppConfiguration] = []
        for app in apps {
            configured.append(AppConfiguration(
                bundleId: app.bundleId, appAppleId: app.appAppleId, environments: ["Production", "Sandbox"],
                trustAppleRoot: false, apiKey: try await key(for: app.bundleId, store: store, folder: folder)))
        }
        return DemoBackend(store: store, settings: settings, apps: configured, folder: folder,
                           logger: Logger(label: "openstore.backend"))
    }

    private struct KeyFile: Codable { var keyId: String; var issuerId: String }

    private static func key(for bundleId: String, store: AppStore, folder: URL) async throws -> APIKeyConfiguration {
        let record = folder.appendingPathComponent("\(bundleId).key.json")
        func p8(_ keyId: String) -> String { folder.appendingPathComponent("AuthKey_\(keyId).p8").path }
        if let data = try? Data(contentsOf: record), let known = try? JSONDecoder().decode(KeyFile.self, from: data),
           FileManager.default.fileExists(atPath: p8(known.keyId)),
           try await store.world(AppStore.defaultWorld).apiKeys().contains(where: { $0.keyId == known.keyId && $0.bundleId == bundleId }) {
            return APIKeyConfiguration(privateKeyFile: p8(known.keyId), keyId: known.keyId, issuerId: known.issuerId)
        }
        let generated = try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: bundleId)
        let path = p8(generated.key.keyId)
        try? FileManager.default.removeItem(atPath: path)
        guard FileManager.default.createFile(atPath: path, contents: Data(generated.privateKeyP8.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw ConfigError("cannot write the backend's API key in \(folder.path)")
        }
        try JSONEncoder().encode(KeyFile(keyId: generated.key.keyId, issuerId: generated.key.issuerId)).write(to: record, options: .atomic)
        return APIKeyConfiguration(privateKeyFile: path, keyId: generated.key.keyId, issuerId: generated.key.issuerId)
    }

    /// The address other processes on this machine reach a server bound to `host` at.
    static func reachable(_ host: String) -> String {
        switch host {
        case "0.0.0.0", "", "::", "[::]": "127.0.0.1"
        case let ipv6 where ipv6.contains(":") && !ipv6.hasPrefix("["): "[\(ipv6)]"
        default: host
        }
    }

    static func isLoopback(_ host: String) -> Bool { ["127.0.0.1", "::1", "localhost"].contains(host) }

    /// Starts the backend once the store listens on `storePort`; returns at once.
    func start(storePort: Int) async {
        var configuration = BackendConfiguration(database: folder.appendingPathComponent("backend.sqlite").path)
        // The backend's customer API is open on loopback only; elsewhere it takes the admin token.
        if Self.isLoopback(settings.host) {
            configuration.host = settings.host
        } else if let token = settings.adminToken, !token.isEmpty {
            configuration.host = settings.host
            configuration.apiToken = token
        } else {
            configuration.host = "127.0.0.1"
        }
        let storeURL = "http://\(Self.reachable(settings.host)):\(storePort)"
        configuration.apps = apps.map { app in
            var app = app
            app.apiBaseURL = storeURL
            return app
        }
        let chosen = settings.backendPort
        let automatic = settings.port == 0 ? 0 : (storePort < 65535 ? storePort + 1 : 0)
        let work = Task { [self] in
            do {
                let database = try await BackendDatabase.open(path: configuration.database)
                running.withLock { $0.database = database }
                var ports = [chosen ?? automatic]
                if chosen == nil && automatic != 0 { ports.append(0) }
                for (index, port) in ports.enumerated() {
                    var settings = configuration
                    settings.port = port
                    let attempt = settings
                    let listening = Flag()
                    do {
                        let service = BackendService(configuration: attempt, database: database, extraRootsDER: [store.authority.rootDER],
                                                     http: http, logger: logger)
                        try await service.run(handlesSignals: false) { bound in
                            listening.set()
                            await self.listening(host: attempt.host, port: bound)
                        }
                        return
                    } catch where !listening.isSet && index + 1 < ports.count && !Task.isCancelled {
                        logger.notice("the backend's port \(port) is taken; it takes a free one", metadata: ["error": "\(error)"])
                    }
                }
            } catch is CancellationError {
            } catch {
                logger.error("the subscription backend did not start; the store runs without it", metadata: ["error": "\(error)"])
            }
        }
        running.withLock { $0.task = work }
    }

    /// The offering the backend serves `customer` of `bundleId`, for the store's `/store` pages
    /// (`OfferingSource`): what a real app's paywall asks its backend. Nil until the backend
    /// listens, when none is configured, or when it does not answer within two seconds.
    func offering(bundleId: String, customer: String) async -> RemoteOffering? {
        guard let base = base.withLock({ $0 }) else { return nil }
        let url = "\(base)/v1/customers/\(PercentEncoding.unreserved(customer))/offerings?bundleId=\(PercentEncoding.unreserved(bundleId))"
        guard let response = try? await http.execute(HTTPClientRequest(url: url), timeout: .seconds(2)), response.status == .ok,
              let body = try? await response.body.collect(upTo: 1 << 20),
              let answer = try? JSONDecoder().decode(CustomerOfferings.self, from: Data(buffer: body)),
              let current = answer.current else { return nil }
        let product = { (package: String?) in current.packages.first { $0.id == package }?.productId }
        return RemoteOffering(id: current.id, productIDs: current.packages.map(\.productId),
                              preselectedProductID: product(current.preselectedPackage),
                              title: current.metadata["title"], subtitle: current.metadata["subtitle"])
    }

    /// Points the demo apps' notification URLs at the backend and prints where it is.
    private func listening(host: String, port: Int) async {
        let base = "http://\(Self.reachable(host)):\(port)"
        self.base.withLock { $0 = base }
        var kept: [String] = []
        for app in apps {
            let url = "\(base)/apple/notifications/\(app.bundleId)"
            for environment in ["Production", "Sandbox"] {
                do {
                    let current = try await store.world(AppStore.defaultWorld).notificationURL(bundleId: app.bundleId, environment: environment)
                    // A URL someone set by hand is theirs; only an earlier backend's is replaced.
                    if let current, !current.contains("/apple/notifications/") {
                        kept.append("\(app.bundleId) \(environment)")
                        continue
                    }
                    if current != url { _ = try await store.world(AppStore.defaultWorld).setNotificationURL(url, bundleId: app.bundleId, environment: environment) }
                } catch {
                    logger.warning("cannot set the notification URL", metadata: ["bundleId": "\(app.bundleId)", "error": "\(error)"])
                }
            }
        }
        var details = apps.map { "  \($0.bundleId): notifications \(base)/apple/notifications/\($0.bundleId)" }
        if !kept.isEmpty { details.append("  kept the notification URL set by hand for: \(kept.joined(separator: ", "))") }
        StartBanner(
            message: "Subscription backend listening on http://\(host):\(port)  (customer info: \(base)/v1/customers/{appUserId})",
            details: details,
            fields: ["url": base, "notificationURLs": Dictionary(uniqueKeysWithValues: apps.map { ($0.bundleId, "\(base)/apple/notifications/\($0.bundleId)") }),
                     "keptNotificationURLs": kept]
        ).write(format: settings.logFormat)
    }

    /// Stops the backend after the store stopped serving.
    func stop() async {
        let work = running.withLock { $0.task }
        work?.cancel()
        await work?.value
        // Read once the work has ended: a stop during start-up (a SIGTERM right after launch)
        // must also close the database the work opened meanwhile.
        let database = running.withLock { $0.database }
        await database?.close()
        try? await http.shutdown()
    }
}

/// A flag set from a closure and read after it.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
