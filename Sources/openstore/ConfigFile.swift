import Foundation
import StoreModel

/// `openstore serve --config openstore.json`: the store's set-up kept in a file a team commits.
/// Every key mirrors a `serve` option; `apps` lists the apps with what App Store Connect holds
/// for them. Any key not listed here is an error naming its JSON path, so a typo never passes
/// silently (docs/configuration.md).
struct ConfigFile: Equatable {
    struct App: Equatable {
        /// The `.storekit` file, relative to the config file's folder unless absolute.
        var catalog: String
        var bundleId: String
        var appAppleId: Int64?
        var environment: String?
        /// App Store Connect's "Production Server URL" and "Sandbox Server URL".
        var productionNotificationURL: String?
        var sandboxNotificationURL: String?
        /// The app-specific shared secret (`/verifyReceipt`'s `password`).
        var sharedSecret: String?
    }

    var host: String?
    var port: Int?
    var data: String?
    var database: String?
    var adminToken: String?
    var rateLimit: Int?
    var notificationTimeout: Double?
    var notificationConcurrency: Int?
    var customersInMemory: Int?
    var logFormat: String?
    var logLevel: String?
    /// `false`: no subscription backend beside the demo apps.
    var backend: Bool?
    var backendPort: Int?
    var advertiseURL: String?
    var leaseSeconds: Double?
    var apps: [App]?

    static let topKeys: Set<String> = [
        "host", "port", "data", "database", "adminToken", "rateLimit", "notificationTimeout",
        "notificationConcurrency", "logFormat", "logLevel", "backend", "backendPort", "apps", "customersInMemory",
        "advertiseURL", "leaseSeconds",
    ]
    static let appKeys: Set<String> = ["catalog", "bundleId", "appAppleId", "environment", "notificationURLs", "sharedSecret"]
    static let urlKeys: Set<String> = ["production", "sandbox"]

    /// Reads and checks the file at `path`. Relative catalog paths become relative to its folder.
    static func load(path: String) throws -> ConfigFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError("cannot read config file \(path): \(error.localizedDescription)")
        }
        var config = try parse(data, name: path)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        config.apps = config.apps?.map { app in
            var app = app
            if !app.catalog.hasPrefix("/") { app.catalog = folder.appendingPathComponent(app.catalog).path }
            return app
        }
        return config
    }

    /// Decodes the file's text; `name` prefixes every error.
    static func parse(_ data: Data, name: String) throws -> ConfigFile {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigError("\(name) is not valid JSON: \(error.localizedDescription)")
        }
        let reader = Reader(name: name)
        let top = try reader.object(root, at: "", keys: topKeys)
        var config = ConfigFile()
        config.host = try reader.string(top["host"], at: "host")
        config.port = try reader.integer(top["port"], at: "port", in: 0...65535).map(Int.init)
        config.data = try reader.string(top["data"], at: "data")
        config.database = try reader.string(top["database"], at: "database")
        config.adminToken = try reader.string(top["adminToken"], at: "adminToken")
        config.rateLimit = try reader.integer(top["rateLimit"], at: "rateLimit", in: 0...Int64(Int32.max)).map(Int.init)
        config.notificationTimeout = try reader.number(top["notificationTimeout"], at: "notificationTimeout")
        config.notificationConcurrency = try reader.integer(top["notificationConcurrency"], at: "notificationConcurrency", in: 1...100_000).map(Int.init)
        config.customersInMemory = try reader.integer(top["customersInMemory"], at: "customersInMemory", in: 1...Int64(Int32.max)).map(Int.init)
        config.logFormat = try reader.string(top["logFormat"], at: "logFormat")
        config.logLevel = try reader.string(top["logLevel"], at: "logLevel")
        config.backend = try reader.bool(top["backend"], at: "backend")
        config.backendPort = try reader.integer(top["backendPort"], at: "backendPort", in: 0...65535).map(Int.init)
        config.advertiseURL = try reader.string(top["advertiseURL"], at: "advertiseURL")
        config.leaseSeconds = try reader.number(top["leaseSeconds"], at: "leaseSeconds")
        if let list = top["apps"] {
            guard case .array(let items) = list else { throw reader.error("apps", "expected an array of apps") }
            config.apps = try items.enumerated().map { index, item in
                let path = "apps[\(index)]"
                let fields = try reader.object(item, at: path, keys: appKeys)
                guard let catalog = try reader.string(fields["catalog"], at: path + ".catalog") else {
                    throw reader.error(path, "missing \"catalog\" (the .storekit file)")
                }
                guard let bundleId = try reader.string(fields["bundleId"], at: path + ".bundleId") else {
                    throw reader.error(path, "missing \"bundleId\"")
                }
                var app = App(catalog: catalog, bundleId: bundleId)
                app.appAppleId = try reader.integer(fields["appAppleId"], at: path + ".appAppleId", in: 1...Int64.max)
                app.environment = try reader.string(fields["environment"], at: path + ".environment")
                if let environment = app.environment, StoreEnvironment(lenient: environment) == nil {
                    throw reader.error(path + ".environment", "\"\(environment)\" is not Sandbox, Production or Xcode")
                }
                if let urls = fields["notificationURLs"] {
                    let byEnvironment = try reader.object(urls, at: path + ".notificationURLs", keys: urlKeys)
                    app.productionNotificationURL = try reader.string(byEnvironment["production"], at: path + ".notificationURLs.production")
                    app.sandboxNotificationURL = try reader.string(byEnvironment["sandbox"], at: path + ".notificationURLs.sandbox")
                }
                app.sharedSecret = try reader.string(fields["sharedSecret"], at: path + ".sharedSecret")
                return app
            }
        }
        return config
    }

    /// Checks types and names keys by their JSON path (`apps[1].bundleID`).
    struct Reader {
        var name: String

        func error(_ path: String, _ message: String) -> ConfigError {
            ConfigError("\(name): \(path.isEmpty ? "the top level" : path): \(message)")
        }

        func object(_ value: JSONValue, at path: String, keys: Set<String>) throws -> [String: JSONValue] {
            guard case .object(let fields) = value else { throw error(path, "expected an object") }
            for key in fields.keys.sorted() where !keys.contains(key) {
                let keyPath = path.isEmpty ? key : path + "." + key
                throw ConfigError("\(name): unknown key \"\(keyPath)\" (known here: \(keys.sorted().joined(separator: ", ")))")
            }
            return fields
        }

        func string(_ value: JSONValue?, at path: String) throws -> String? {
            guard let value, value != .null else { return nil }
            guard case .string(let text) = value else { throw error(path, "expected a string") }
            return text
        }

        func bool(_ value: JSONValue?, at path: String) throws -> Bool? {
            guard let value, value != .null else { return nil }
            guard case .bool(let flag) = value else { throw error(path, "expected true or false") }
            return flag
        }

        func number(_ value: JSONValue?, at path: String) throws -> Double? {
            guard let value, value != .null else { return nil }
            guard case .number(let number) = value, number.isFinite, number >= 0 else { throw error(path, "expected a number of 0 or more") }
            return number
        }

        func integer(_ value: JSONValue?, at path: String, in range: ClosedRange<Int64>) throws -> Int64? {
            guard let number = try number(value, at: path) else { return nil }
            guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                throw error(path, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return Int64(number)
        }
    }
}

/// A bad config file or environment variable, said in one line that names where.
struct ConfigError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Any JSON value, so the config file can be checked key by key.
enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let array = try? container.decode([JSONValue].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
}
