import Foundation
import StoreEngine
import StoreModel

/// The process environment, read the twelve-factor way: an empty variable counts as unset.
enum Env {
    static func value(_ name: String, in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }

    /// A comma-separated list (`OPENSTORE_CATALOGS=a.storekit,b.storekit`).
    static func list(_ name: String, in environment: [String: String]) -> [String]? {
        value(name, in: environment).map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    static func parsed<T>(_ name: String, in environment: [String: String], as what: String, _ parse: (String) -> T?) throws -> T? {
        guard let text = value(name, in: environment) else { return nil }
        guard let value = parse(text) else { throw ConfigError("\(name)=\"\(text)\" is not \(what)") }
        return value
    }
}

/// Everything `serve` runs with, each value taken from the first place that gives it:
/// the command-line flag, then its `OPENSTORE_*` environment variable, then the config file,
/// then the default (docs/configuration.md lists them all).
struct ServeSettings: Equatable {
    struct App: Equatable {
        var catalog: String
        var bundleId: String
        var appAppleId: Int64?
        var environment: String?
        var productionNotificationURL: String?
        var sandboxNotificationURL: String?
        var sharedSecret: String?
    }

    var host = "127.0.0.1"
    var port = 8080
    var data = ".openstore"
    var database: String?
    var adminToken: String?
    var rateLimit: Int?
    var notificationTimeout: Double = 5
    var notificationConcurrency = 64
    /// Customers each world keeps in memory (docs/reliability.md, "Bounded memory").
    var customersInMemory = CustomerMemoryPolicy.defaultMaximumCustomers
    var logFormat = LogFormat.text
    var logLevel = "info"
    /// Run the subscription backend beside the demo apps (docs/backend.md, "In one command").
    var backend = true
    /// nil: the store's port + 1 (a free one when the store's port is 0).
    var backendPort: Int?
    /// With PostgreSQL: where other instances forward this one's worlds (nil: http://host:port as bound).
    var advertiseURL: String?
    /// With PostgreSQL: a world's lease (docs/deploy.md).
    var leaseSeconds: Double = 10
    /// Empty: the demo apps.
    var apps: [App] = []
    /// Where the apps came from ("flags", "OPENSTORE_CATALOGS", the config file's path, "demo").
    var appsSource = "demo"

    /// Each option's environment variable (shown in `serve --help` and docs/configuration.md).
    static let variables: [(name: String, option: String)] = [
        ("OPENSTORE_CONFIG", "--config"), ("OPENSTORE_HOST", "--host"), ("OPENSTORE_PORT", "--port"),
        ("OPENSTORE_DATA", "--data"), ("OPENSTORE_DATABASE_URL", "--database"), ("OPENSTORE_ADMIN_TOKEN", "--admin-token"),
        ("OPENSTORE_RATE_LIMIT", "--rate-limit"), ("OPENSTORE_NOTIFICATION_TIMEOUT", "--notification-timeout"),
        ("OPENSTORE_NOTIFICATION_CONCURRENCY", "--notification-concurrency"), ("OPENSTORE_LOG_FORMAT", "--log-format"),
        ("OPENSTORE_LOG_LEVEL", "--log-level"), ("OPENSTORE_CATALOGS", "--catalog"), ("OPENSTORE_BUNDLE_IDS", "--bundle-id"),
        ("OPENSTORE_APP_APPLE_IDS", "--app-apple-id"), ("OPENSTORE_ENVIRONMENTS", "--environment"),
        ("OPENSTORE_BACKEND", "--backend/--no-backend"), ("OPENSTORE_BACKEND_PORT", "--backend-port"),
        ("OPENSTORE_CUSTOMERS_IN_MEMORY", "--customers-in-memory"),
        ("OPENSTORE_ADVERTISE_URL", "--advertise-url"), ("OPENSTORE_LEASE_SECONDS", "--lease-seconds"),
    ]

    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
}

/// `--log-format`: lines for people, or one JSON object per line for a log stack.
enum LogFormat: String, Equatable, CaseIterable {
    case text, json
}

extension Serve {
    /// Flag > environment > config file > default, checked as a whole.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServeSettings {
        let configPath = config ?? Env.value("OPENSTORE_CONFIG", in: environment)
        let file = try configPath.map { try ConfigFile.load(path: $0) } ?? ConfigFile()
        func int(_ name: String) throws -> Int? { try Env.parsed(name, in: environment, as: "a whole number") { Int($0) } }
        func number(_ name: String) throws -> Double? {
            try Env.parsed(name, in: environment, as: "a number") { Double($0).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        }
        var settings = ServeSettings()
        settings.host = host ?? Env.value("OPENSTORE_HOST", in: environment) ?? file.host ?? settings.host
        settings.port = try port ?? int("OPENSTORE_PORT") ?? file.port ?? settings.port
        settings.data = data.flag ?? Env.value("OPENSTORE_DATA", in: environment) ?? file.data ?? settings.data
        settings.database = data.database ?? Env.value("OPENSTORE_DATABASE_URL", in: environment) ?? file.database
        settings.adminToken = adminToken ?? Env.value("OPENSTORE_ADMIN_TOKEN", in: environment) ?? file.adminToken
        settings.rateLimit = try rateLimit ?? int("OPENSTORE_RATE_LIMIT") ?? file.rateLimit
        settings.notificationTimeout = try notificationTimeout ?? number("OPENSTORE_NOTIFICATION_TIMEOUT")
            ?? file.notificationTimeout ?? settings.notificationTimeout
        settings.notificationConcurrency = try notificationConcurrency ?? int("OPENSTORE_NOTIFICATION_CONCURRENCY")
            ?? file.notificationConcurrency ?? settings.notificationConcurrency
        let format = logFormat ?? Env.value("OPENSTORE_LOG_FORMAT", in: environment) ?? file.logFormat ?? "text"
        guard let logFormat = LogFormat(rawValue: format.lowercased()) else {
            throw ConfigError("unknown log format \"\(format)\": use text or json")
        }
        settings.logFormat = logFormat
        settings.logLevel = (logLevel ?? Env.value("OPENSTORE_LOG_LEVEL", in: environment) ?? file.logLevel ?? settings.logLevel).lowercased()
        guard ServeSettings.logLevels.contains(settings.logLevel) else {
            throw ConfigError("unknown log level \"\(settings.logLevel)\": use \(ServeSettings.logLevels.joined(separator: ", "))")
        }
        guard (0...65535).contains(settings.port) else { throw ConfigError("port \(settings.port) is not 0...65535") }
        settings.backend = try backend ?? Env.parsed("OPENSTORE_BACKEND", in: environment, as: "on or off (true/false, 1/0)") { text in
            switch text.lowercased() {
            case "1", "true", "on", "yes": true
            case "0", "false", "off", "no": false
            default: nil
            }
        } ?? file.backend ?? settings.backend
        settings.backendPort = try backendPort ?? int("OPENSTORE_BACKEND_PORT") ?? file.backendPort
        if let backendPort = settings.backendPort, !(0...65535).contains(backendPort) {
            throw ConfigError("backend port \(backendPort) is not 0...65535")
        }
        guard settings.notificationConcurrency > 0 else { throw ConfigError("the notification concurrency must be 1 or more") }
        settings.customersInMemory = try customersInMemory ?? int("OPENSTORE_CUSTOMERS_IN_MEMORY")
            ?? file.customersInMemory ?? settings.customersInMemory
        guard settings.customersInMemory > 0 else { throw ConfigError("customers in memory must be 1 or more") }
        settings.advertiseURL = advertiseURL ?? Env.value("OPENSTORE_ADVERTISE_URL", in: environment) ?? file.advertiseURL
        if let url = settings.advertiseURL {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil, parsed.path.isEmpty || parsed.path == "/" else {
                throw ConfigError("advertise URL \"\(url)\" is not an http(s)://host:port URL without a path")
            }
            if url.hasSuffix("/") { settings.advertiseURL = String(url.dropLast()) }
        }
        settings.leaseSeconds = try leaseSeconds ?? number("OPENSTORE_LEASE_SECONDS") ?? file.leaseSeconds ?? settings.leaseSeconds
        guard settings.leaseSeconds >= 0.3 && settings.leaseSeconds <= 3600 else { throw ConfigError("the lease must be 0.3 to 3600 seconds") }
        try resolveApps(into: &settings, environment: environment, file: file, filePath: configPath)
        return settings
    }

    private func resolveApps(into settings: inout ServeSettings, environment: [String: String], file: ConfigFile, filePath: String?) throws {
        let catalogs: [String], bundleIds: [String], appleIds: [Int64], environments: [String]
        if !self.catalogs.isEmpty || !self.bundleIds.isEmpty {
            (catalogs, bundleIds, appleIds, environments) = (self.catalogs, self.bundleIds, appAppleIds, self.environments)
            settings.appsSource = "flags"
        } else if let fromEnvironment = Env.list("OPENSTORE_CATALOGS", in: environment) {
            catalogs = fromEnvironment
            bundleIds = Env.list("OPENSTORE_BUNDLE_IDS", in: environment) ?? []
            appleIds = try (Env.list("OPENSTORE_APP_APPLE_IDS", in: environment) ?? []).map { text in
                guard let id = Int64(text), id > 0 else { throw ConfigError("OPENSTORE_APP_APPLE_IDS: \"\(text)\" is not an app Apple ID (a number)") }
                return id
            }
            environments = Env.list("OPENSTORE_ENVIRONMENTS", in: environment) ?? []
            settings.appsSource = "OPENSTORE_CATALOGS"
        } else if let apps = file.apps {
            settings.apps = apps.map {
                .init(catalog: $0.catalog, bundleId: $0.bundleId, appAppleId: $0.appAppleId, environment: $0.environment,
                      productionNotificationURL: $0.productionNotificationURL, sandboxNotificationURL: $0.sandboxNotificationURL,
                      sharedSecret: $0.sharedSecret)
            }
            settings.appsSource = filePath ?? "config file"
            return
        } else {
            settings.appsSource = "demo"
            return
        }
        let (catalogName, bundleName, appleName, environmentName) = settings.appsSource == "flags"
            ? ("--catalog", "--bundle-id", "--app-apple-id", "--environment")
            : ("OPENSTORE_CATALOGS", "OPENSTORE_BUNDLE_IDS", "OPENSTORE_APP_APPLE_IDS", "OPENSTORE_ENVIRONMENTS")
        guard bundleIds.count == catalogs.count else {
            throw ConfigError("give one \(bundleName) for each \(catalogName) (\(catalogs.count) catalog(s), \(bundleIds.count) bundle ID(s))")
        }
        for (name, count) in [(appleName, appleIds.count), (environmentName, environments.count)] where count > 1 && count != catalogs.count {
            throw ConfigError("\(name) must be given once or once per catalog")
        }
        for environment in environments where StoreEnvironment(lenient: environment) == nil {
            throw ConfigError("unknown environment \"\(environment)\": use Sandbox, Production or Xcode")
        }
        settings.apps = catalogs.indices.map { index in
            ServeSettings.App(
                catalog: catalogs[index], bundleId: bundleIds[index],
                appAppleId: appleIds.isEmpty ? nil : appleIds[appleIds.count == 1 ? 0 : index],
                environment: environments.isEmpty ? nil : environments[environments.count == 1 ? 0 : index])
        }
    }
}
