import Foundation
import Logging

/// Where StoreKit talks to Apple, OpenStoreKit talks to a running `openstore serve`. Configure
/// once (in code, or with `OPENSTORE_URL`, `OPENSTORE_BUNDLE_ID`, `OPENSTORE_CUSTOMER`,
/// `OPENSTORE_WORLD` in the environment) and use StoreKit's API: `Product.products(for:)`,
/// `Transaction.updates`, …
public enum OpenStoreKit {
    /// What a client needs to know: which store, which app, which customer (the App Store account
    /// "signed in" on this device), in which world.
    public struct Configuration: Sendable {
        /// The base URL of the running `openstore serve`.
        public var store: URL
        /// The app's bundle ID, which every signed transaction must carry to verify.
        public var bundleID: String
        /// The store customer (account) this client acts for.
        public var customer: String
        /// The store world to use; each world has its own customers, purchases and clock.
        public var world: String
        /// Sets the customer's storefront (ISO 3166-1 alpha-3) when connecting, creating the
        /// customer if needed; nil leaves the account as it is.
        public var storefront: String?
        /// The root certificate (DER) to trust. Given, a store whose root differs is refused;
        /// nil trusts the root the store hands out on first contact, then pins it.
        public var rootCertificate: Data?
        /// Creates the customer on first contact when it does not exist. Off by default, so a
        /// mistyped customer is a clear error rather than a new, empty account.
        public var createsCustomer: Bool
        /// The app version `AppStore.requestReview()` asks for (StoreKit reads it from the bundle).
        public var appVersion: String
        /// How long one request may take before it fails with `StoreKitError.networkError`.
        public var requestTimeout: Duration
        /// How long `Transaction.updates` waits without a byte (events or heartbeats) before it
        /// reconnects.
        public var updatesIdleTimeout: Duration

        /// A configuration with the given store, app and customer; every other setting has a default.
        public init(store: URL, bundleID: String, customer: String, world: String = "default", storefront: String? = nil,
                    rootCertificate: Data? = nil, createsCustomer: Bool = false, appVersion: String = "1.0",
                    requestTimeout: Duration = .seconds(30), updatesIdleTimeout: Duration = .seconds(45)) {
            self.store = store
            self.bundleID = bundleID
            self.customer = customer
            self.world = world
            self.storefront = storefront
            self.rootCertificate = rootCertificate
            self.createsCustomer = createsCustomer
            self.appVersion = appVersion
            self.requestTimeout = requestTimeout
            self.updatesIdleTimeout = updatesIdleTimeout
        }

        /// The store `openstore serve` listens on by default.
        public static let defaultStore = URL(string: "http://127.0.0.1:8080")!
        /// The account an unconfigured client signs in as.
        public static let defaultCustomer = "default"

        /// What an app that never calls `configure` gets: StoreKit code runs unchanged. Every value
        /// has a default, and the environment overrides it:
        /// - `OPENSTORE_URL`: the store (default `http://127.0.0.1:8080`);
        /// - `OPENSTORE_BUNDLE_ID`: the app (default: `CFBundleIdentifier` of the app's
        ///   `Info.plist`, found beside the executable or in the working directory);
        /// - `OPENSTORE_CUSTOMER`: the account signed in (default `default`), created on first
        ///   use unless `OPENSTORE_STRICT=1` (or `OPENSTORE_CREATE_CUSTOMER=0`) asks that it exist;
        /// - optionally `OPENSTORE_WORLD`, `OPENSTORE_STOREFRONT`, `OPENSTORE_ROOT_CERTIFICATE` (a DER file).
        public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Configuration {
            try fromEnvironment(environment, infoPlists: InfoPlist.candidates())
        }

        /// `fromEnvironment`, looking for the bundle ID in these `Info.plist` files (first found wins).
        static func fromEnvironment(_ environment: [String: String], infoPlists: [URL]) throws -> Configuration {
            func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
            var url = defaultStore
            if let text = value("OPENSTORE_URL") {
                guard let given = URL(string: text), given.scheme == "http" || given.scheme == "https", given.host != nil else {
                    throw OpenStoreKitError.notConfigured("OPENSTORE_URL \"\(text)\" is not an http(s) URL")
                }
                url = given
            }
            guard let bundleID = value("OPENSTORE_BUNDLE_ID") ?? InfoPlist.bundleIdentifier(in: infoPlists) else {
                throw OpenStoreKitError.notConfigured(
                    "no bundle ID: set OPENSTORE_BUNDLE_ID, put the app's Info.plist (CFBundleIdentifier) beside the executable, or call OpenStoreKit.configure")
            }
            var root: Data?
            if let path = value("OPENSTORE_ROOT_CERTIFICATE") {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw OpenStoreKitError.notConfigured("OPENSTORE_ROOT_CERTIFICATE: cannot read \(path)")
                }
                root = data
            }
            let no = ["0", "false", "no"], yes = ["1", "true", "yes"]
            let strict = yes.contains(value("OPENSTORE_STRICT")?.lowercased() ?? "")
                || no.contains(value("OPENSTORE_CREATE_CUSTOMER")?.lowercased() ?? "")
            return Configuration(
                store: url, bundleID: bundleID, customer: value("OPENSTORE_CUSTOMER") ?? defaultCustomer,
                world: value("OPENSTORE_WORLD") ?? "default", storefront: value("OPENSTORE_STOREFRONT"), rootCertificate: root,
                createsCustomer: !strict)
        }
    }

    /// Points StoreKit's API at a store, for the whole process.
    @discardableResult
    public static func configure(store: URL, bundleID: String, customer: String, world: String = "default",
                                 storefront: String? = nil) -> StoreConnection {
        configure(Configuration(store: store, bundleID: bundleID, customer: customer, world: world, storefront: storefront))
    }

    /// Points StoreKit's API at a store, with every option.
    @discardableResult
    public static func configure(_ configuration: Configuration) -> StoreConnection {
        let connection = StoreConnection(configuration)
        global.withLock { $0 = connection }
        return connection
    }

    /// Configures from the environment variables (see `Configuration.fromEnvironment`).
    @discardableResult
    public static func configureFromEnvironment() throws -> StoreConnection {
        configure(try Configuration.fromEnvironment())
    }

    /// The connection StoreKit's API uses here: the one bound with `withConnection` in this task,
    /// else the process-wide one, else one configured from the environment on first use.
    public static func connection() throws -> StoreConnection {
        if let scoped = scoped { return scoped }
        if let resolved = resolvedConnection() { return resolved }  // ConnectionResolver.swift
        if let configured = global.withLock({ $0 }) { return configured }
        return try configureFromEnvironment()
    }

    /// Runs `body` with StoreKit's API talking to `connection`, in this task and the tasks it
    /// starts: two stores (or customers) in one process, side by side, as parallel tests need.
    public static func withConnection<T: Sendable>(_ connection: StoreConnection, _ body: () async throws -> T) async rethrows -> T {
        try await $scoped.withValue(connection) { try await body() }
    }

    @TaskLocal static var scoped: StoreConnection?
    /// Where the library reports what it skipped or retried (malformed events, reconnects).
    static let logger = Logger(label: "OpenStoreKit")
    private static let global = LockedValue<StoreConnection?>(nil)
}
