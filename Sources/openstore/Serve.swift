import ArgumentParser
import Foundation
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
        """)

    @Option(help: "Address to bind. Stays on loopback unless told otherwise.")
    var host = "127.0.0.1"
    @Option(help: "Port to listen on.")
    var port = 8080
    @OptionGroup var data: DataOption
    @Option(name: .customLong("catalog"), help: "An Xcode .storekit file to sell from (repeatable).")
    var catalogs: [String] = []
    @Option(name: .customLong("bundle-id"), help: "The bundle ID of the app for the catalog in the same position.")
    var bundleIds: [String] = []
    @Option(name: .customLong("app-apple-id"), help: "The app's Apple ID (a number).")
    var appAppleIds: [Int64] = []
    @Option(name: .customLong("environment"), help: "Sandbox (default), Production or Xcode: goes into every signed payload.")
    var environments: [String] = []
    @Option(name: .customLong("rate-limit"), help: "App Store Server API: requests per minute per key, answered 429 beyond (default: unlimited).")
    var rateLimit: Int?
    @Option(name: .customLong("admin-token"), help: ArgumentHelp(
        "Admin API: require 'Authorization: Bearer <token>' and answer from any address (default: no token, loopback only; or set OPENSTORE_ADMIN_TOKEN).",
        valueName: "token"))
    var adminToken: String?
    @Option(name: .customLong("notification-timeout"), help: "Server notifications: seconds an attempt may take before it counts as TIMED_OUT (default 5).")
    var notificationTimeout: Double = 5
    @Option(name: .customLong("notification-concurrency"), help: "Server notifications: most deliveries in flight at once (default 64).")
    var notificationConcurrency: Int = 64

    func validate() throws {
        guard bundleIds.count == catalogs.count else {
            throw ValidationError("give one --bundle-id for each --catalog (\(catalogs.count) catalog(s), \(bundleIds.count) bundle ID(s))")
        }
        for (name, count) in [("--app-apple-id", appAppleIds.count), ("--environment", environments.count)] where count > 1 && count != catalogs.count {
            throw ValidationError("\(name) must be given once or once per --catalog")
        }
        for environment in environments where StoreEnvironment(lenient: environment) == nil {
            throw ValidationError("unknown environment \"\(environment)\": use Sandbox, Production or Xcode")
        }
    }

    func run() async throws {
        let apps = try loadApps()
        if let rateLimit { setenv("OPENSTORE_SERVER_API_RATE_LIMIT", String(max(rateLimit, 0)), 1) }
        let database = try await StoreDatabase.open(path: data.databasePath)
        let store = try await AppStore.open(database: database, apps: apps)
        let token = adminToken ?? ProcessInfo.processInfo.environment["OPENSTORE_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let server = StoreHTTPServer(store: store, host: host, port: port, adminToken: token)
        // Server notifications leave the outbox as long as the store serves (docs/notifications.md).
        let delivery = NotificationDeliveryService(store: store, configuration: NotificationDeliveryConfiguration(
            timeoutSeconds: notificationTimeout, concurrency: notificationConcurrency))
        let deliveryTask = Task { await delivery.run() }
        defer { deliveryTask.cancel() }
        try await server.run { boundPort in
            var lines = ["OpenStoreKit listening on http://\(host):\(boundPort)  (data: \(data.data))"]
            for app in apps {
                lines.append("  \(app.bundleId)  \(app.name)  appAppleId \(app.appAppleId)  \(app.environment.rawValue)  \(app.catalog.products.count) products")
            }
            // Written unbuffered so scripts waiting for the line see it at once.
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }

    func loadApps() throws -> [StoreApp] {
        if catalogs.isEmpty { return try DemoApps.all() }
        var apps: [StoreApp] = []
        for (index, path) in catalogs.enumerated() {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read catalog \(path): \(error.localizedDescription)")
            }
            let environment = environments.isEmpty ? .sandbox : StoreEnvironment(lenient: environments[environments.count == 1 ? 0 : index]) ?? .sandbox
            let bundleId = bundleIds[index]
            let appleId = appAppleIds.isEmpty ? DemoApps.stableAppleId(for: bundleId) : appAppleIds[appAppleIds.count == 1 ? 0 : index]
            do {
                apps.append(try StoreApp(
                    bundleId: bundleId, appAppleId: appleId, environment: environment,
                    name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, catalogJSON: text))
            } catch {
                throw ValidationError("\(path) is not a valid .storekit catalog:\n\(error.description)")
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
