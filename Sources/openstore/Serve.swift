import ArgumentParser
import Foundation
import Logging
import StoreEngine
import StoreModel
import StoreNotifications
import StoreServer
import StoreStorage

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the store. With no --catalog it hosts the Backyard Birds and Food Truck demo apps.",
        discussion: """
        Each --catalog adds an app, paired in order with the --bundle-id given for it. \
        --app-apple-id and --environment may be given once (for every app) or once per catalog.

        Every option is also an environment variable (OPENSTORE_PORT, OPENSTORE_DATA, …; lists such \
        as OPENSTORE_CATALOGS are comma-separated), and a --config file (JSON) can hold them and the \
        apps with their notification URLs. A flag beats its environment variable, which beats the \
        file (docs/configuration.md).
        """)

    @Option(help: ArgumentHelp("A JSON config file: options and apps (env OPENSTORE_CONFIG).", valueName: "file"))
    var config: String?
    @Option(help: "Address to bind. Stays on loopback unless told otherwise (env OPENSTORE_HOST; default 127.0.0.1).")
    var host: String?
    @Option(help: "Port to listen on; 0 picks a free one (env OPENSTORE_PORT; default 8080).")
    var port: Int?
    @OptionGroup var data: DataOption
    @Option(name: .customLong("catalog"), help: "An Xcode .storekit file to sell from (repeatable; env OPENSTORE_CATALOGS).")
    var catalogs: [String] = []
    @Option(name: .customLong("bundle-id"), help: "The bundle ID of the app for the catalog in the same position (env OPENSTORE_BUNDLE_IDS).")
    var bundleIds: [String] = []
    @Option(name: .customLong("app-apple-id"), help: "The app's Apple ID (a number) (env OPENSTORE_APP_APPLE_IDS).")
    var appAppleIds: [Int64] = []
    @Option(name: .customLong("environment"), help: "Sandbox (default), Production or Xcode: goes into every signed payload (env OPENSTORE_ENVIRONMENTS).")
    var environments: [String] = []
    @Option(name: .customLong("rate-limit"), help: "App Store Server API: requests per minute per key, answered 429 beyond (env OPENSTORE_RATE_LIMIT; default: unlimited).")
    var rateLimit: Int?
    @Option(name: .customLong("admin-token"), help: ArgumentHelp(
        "Admin API: require 'Authorization: Bearer <token>' and answer from any address (env OPENSTORE_ADMIN_TOKEN; default: no token, loopback only).",
        valueName: "token"))
    var adminToken: String?
    @Option(name: .customLong("notification-timeout"), help: "Server notifications: seconds an attempt may take before it counts as TIMED_OUT (env OPENSTORE_NOTIFICATION_TIMEOUT; default 5).")
    var notificationTimeout: Double?
    @Option(name: .customLong("notification-concurrency"), help: "Server notifications: most deliveries in flight at once (env OPENSTORE_NOTIFICATION_CONCURRENCY; default 64).")
    var notificationConcurrency: Int?
    @Option(name: .customLong("customers-in-memory"), help: "Customers each world keeps in memory; the least recently used beyond it are read back from the database on next use (env OPENSTORE_CUSTOMERS_IN_MEMORY; default 10000).")
    var customersInMemory: Int?
    @Option(name: .customLong("log-format"), help: "text or json: one JSON object per line (env OPENSTORE_LOG_FORMAT; default text).")
    var logFormat: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env OPENSTORE_LOG_LEVEL; default info).")
    var logLevel: String?
    @Flag(inversion: .prefixedNo, help: "With the demo apps, also run the subscription backend, their notification URLs pointing to it (env OPENSTORE_BACKEND=on|off; default on).")
    var backend: Bool? = nil
    @Option(name: .customLong("backend-port"), help: "The backend's port (env OPENSTORE_BACKEND_PORT; default the store's port + 1, a free one when --port is 0).")
    var backendPort: Int?
    @Option(name: .customLong("advertise-url"), help: ArgumentHelp(
        "With PostgreSQL: the URL other instances forward requests for this instance's worlds to (env OPENSTORE_ADVERTISE_URL; default http://HOST:PORT as bound).",
        valueName: "url"))
    var advertiseURL: String?
    @Option(name: .customLong("lease-seconds"), help: "With PostgreSQL: how long a world's lease lasts without a heartbeat; a dead instance's worlds move to another within it (env OPENSTORE_LEASE_SECONDS; default 10).")
    var leaseSeconds: Double?

    func validate() throws {
        do {
            _ = try settings()
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let settings: ServeSettings
        let apps: [StoreApp]
        do {
            settings = try self.settings()
            apps = try Self.loadApps(settings.apps)
        } catch let error as ConfigError {
            throw ValidationError(error.description)
        }
        LogSetup.bootstrap(format: settings.logFormat, level: settings.logLevel)
        let logger = Logger(label: "openstore")
        let database = try await DatabaseLocation.open(url: settings.database, data: settings.data)
        let instance = InstanceSettings(
            advertiseURL: settings.advertiseURL ?? Self.advertised(host: settings.host, port: settings.port),
            leaseMs: Int64(settings.leaseSeconds * 1000),
            instanceId: database.supportsManyInstances ? InstanceIdentity.load(dataFolder: settings.data) : UUID().uuidString.lowercased())
        let store = try await AppStore.open(database: database, apps: apps, instance: instance)
        store.keepCustomersInMemory(CustomerMemoryPolicy(maximumCustomers: settings.customersInMemory))
        for app in settings.apps {
            for (environment, url) in [("Production", app.productionNotificationURL), ("Sandbox", app.sandboxNotificationURL)] {
                if let url { _ = try await store.world(AppStore.defaultWorld).setNotificationURL(url, bundleId: app.bundleId, environment: environment) }
            }
            if let secret = app.sharedSecret { try await store.setSharedSecret(secret, bundleId: app.bundleId) }
        }
        var server = StoreHTTPServer(store: store, host: settings.host, port: settings.port, adminToken: settings.adminToken)
        server.usesLoggerLevel = true
        server.serverAPIRateLimit = settings.rateLimit
        // Server notifications leave the outbox as long as the store serves (docs/notifications.md).
        // Both run in the server's service group: on SIGTERM the server stops first, then these
        // finish (deliveries in flight record their outcomes), then the leases go back below.
        let delivery = NotificationDeliveryService(store: store, configuration: NotificationDeliveryConfiguration(
            timeoutSeconds: settings.notificationTimeout, concurrency: settings.notificationConcurrency))
        // Retention Messaging performance tests call the apps' realtime URLs (docs/server-api.md).
        server.services = [delivery, RetentionPerformanceTestRunner(store: store)]
        // The demo apps get the developer's side too: a subscription backend on the next port.
        let backend: DemoBackend? = settings.backend && settings.apps.isEmpty
            ? try await DemoBackend.prepare(store: store, settings: settings, apps: apps, logger: logger) : nil
        // The demo paywalls on /store show the offering the backend serves their customer, if any.
        if let backend { server.offerings = { bundleId, customer in await backend.offering(bundleId: bundleId, customer: customer) } }
        try await server.run(logger: logger) { boundPort in
            if settings.advertiseURL == nil { store.advertise(Self.advertised(host: settings.host, port: boundPort)) }
            let url = "http://\(settings.host):\(boundPort)"
            StartBanner(
                message: "OpenStoreKit listening on \(url)  (data: \(settings.data))",
                details: apps.map { "  \($0.bundleId)  \($0.name)  appAppleId \($0.appAppleId)  \($0.environment.rawValue)  \($0.catalog.products.count) products" },
                fields: ["url": url, "data": settings.data, "apps": apps.map { app -> [String: Any] in
                    ["bundleId": app.bundleId, "name": app.name, "appAppleId": app.appAppleId,
                     "environment": app.environment.rawValue, "products": app.catalog.products.count]
                }]
            ).write(format: settings.logFormat)
            await backend?.start(storePort: boundPort)
        }
        await backend?.stop()
        // SIGTERM: the worlds' leases go back at once (docs/deploy.md), not at their expiry.
        await store.close()
    }

    /// The URL other instances use when none is given: the bound address (loopback by default;
    /// an instance bound to every interface must be given `--advertise-url`).
    static func advertised(host: String, port: Int) -> String {
        let reachable = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return "http://\(reachable.contains(":") ? "[\(reachable)]" : reachable):\(port)"
    }

    /// The apps from the settings' catalogs (the demo apps when none is given).
    static func loadApps(_ list: [ServeSettings.App]) throws -> [StoreApp] {
        if list.isEmpty { return try DemoApps.all() }
        var apps: [StoreApp] = []
        for entry in list {
            let path = entry.catalog
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ConfigError("cannot read catalog \(path): \(error.localizedDescription)")
            }
            let environment = entry.environment.flatMap { StoreEnvironment(lenient: $0) } ?? .sandbox
            let appleId = entry.appAppleId ?? DemoApps.stableAppleId(for: entry.bundleId)
            do {
                apps.append(try StoreApp(
                    bundleId: entry.bundleId, appAppleId: appleId, environment: environment,
                    name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, catalogJSON: text))
            } catch {
                throw ConfigError("\(path) is not a valid .storekit catalog:\n\(error.description)")
            }
        }
        return apps
    }
}

/// The two demo apps `serve` hosts when given no catalog.
enum DemoApps {
    static func all() throws -> [StoreApp] {
        [
            try StoreApp(bundleId: "com.example.backyardbirds", appAppleId: 1_640_000_001, environment: .sandbox,
                         name: "Backyard Birds", catalogJSON: DemoCatalogs.backyardBirds),
            try foodTruck(),
        ]
    }

    /// Food Truck is at 8.2: the sales history became a purchase in 8.0, so only customers whose
    /// original version is older (set through the App Transaction API) get it unlocked.
    static func foodTruck() throws -> StoreApp {
        var app = try StoreApp(bundleId: "com.example.foodtruck", appAppleId: 1_640_000_002, environment: .sandbox,
                               name: "Food Truck", catalogJSON: DemoCatalogs.foodTruck)
        app.applicationVersion = "8.2"
        return app
    }

    /// An app Apple ID that stays the same for a bundle ID across runs (FNV-1a of the ID).
    static func stableAppleId(for bundleId: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bundleId.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return 1_000_000_000 + Int64(hash % 900_000_000)
    }
}
