import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import SubscriptionBackend

/// `openstore backend`: the developer's subscription backend (docs/backend.md). It knows only
/// what a developer's server knows, so it runs against Apple's App Store as well as ours.
struct BackendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backend",
        abstract: "Run the subscription backend: ingests notifications, keeps customer info, reconciles, sends webhooks.",
        discussion: """
        Settings come from --config backend.json, then the flags. The app flags (--bundle-id and \
        what follows) add one app, or change the file's app with that bundle ID. Point the app's \
        notification URL at http://HOST:PORT/apple/notifications/BUNDLE_ID.
        """)

    @Option(help: ArgumentHelp("backend.json: apps, webhooks, timings.", valueName: "file")) var config: String?
    @Option(help: "Address to bind (default 127.0.0.1).") var host: String?
    @Option(help: "Port; 0 picks a free one (default 8081).") var port: Int?
    @Option(help: ArgumentHelp("Where the backend keeps its state: a SQLite file (sqlite:PATH or a path) or postgres://user:pass@host:port/db (env OPENSTORE_BACKEND_DATABASE_URL; default .openstore-backend/backend.sqlite).", valueName: "url")) var database: String?
    @Option(name: .customLong("bundle-id"), help: "An app to serve.") var bundleId: String?
    @Option(name: .customLong("app-apple-id"), help: "The app's Apple ID (required for Production).") var appAppleId: Int64?
    @Option(name: .customLong("environment"), help: "An environment to accept: Production, Sandbox (repeatable; default both).") var environments: [String] = []
    @Option(name: .customLong("trust-store"), help: ArgumentHelp("Also trust this OpenStoreKit store's root (fetched from URL/storekit/v1/root-certificate).", valueName: "url")) var trustStores: [String] = []
    @Option(name: .customLong("trust-root"), help: ArgumentHelp("Also trust this root certificate (DER or PEM).", valueName: "file")) var trustRoots: [String] = []
    @Flag(name: .customLong("no-apple-root"), help: "Do not trust Apple Root CA - G3 for the app given by flags.") var noAppleRoot = false
    @Option(name: .customLong("api-key"), help: ArgumentHelp("The Server API key (.p8).", valueName: "file")) var apiKey: String?
    @Option(name: .customLong("key-id"), help: "The API key's ID.") var keyId: String?
    @Option(name: .customLong("issuer-id"), help: "The API key's issuer ID.") var issuerId: String?
    @Option(name: .customLong("api-base-url"), help: ArgumentHelp("The Server API (default Apple's hosts; an OpenStoreKit store's URL for local work).", valueName: "url")) var apiBaseURL: String?
    @Option(name: .customLong("entitlement"), help: ArgumentHelp("product=entitlement (repeatable).", valueName: "pair")) var entitlementPairs: [String] = []
    @Option(name: .customLong("refund-control"), help: ArgumentHelp("Answer the app's refund requests (CONSUMPTION_REQUEST): off, preferRefund, preferDecline or dataOnly (default off; needs --api-key).", valueName: "policy")) var refundControl: RefundControlConfiguration.Policy?
    @Option(name: .customLong("refund-consent"), help: ArgumentHelp("Whose refund requests are answered: recorded (customers whose consent the app recorded; default) or all.", valueName: "whose")) var refundConsent: RefundControlConfiguration.Consent?
    @Option(name: .customLong("transfer-policy"), help: ArgumentHelp("When the app posts a purchase another identified customer has: transfer (default; a TRANSFER event) or keep (answered 409).", valueName: "policy")) var transferPolicy: TransferPolicy?
    @Flag(name: .customLong("small-business-program"), help: "The developer is in Apple's Small Business Program: webhooks' proceeds use a 15 % commission.") var smallBusinessProgram = false
    @Option(name: .customLong("webhook"), help: ArgumentHelp("URL=SECRET: send events there, signed with SECRET (repeatable).", valueName: "url=secret")) var webhooks: [String] = []
    @Option(name: .customLong("slack-webhook"), help: ArgumentHelp("A Slack incoming-webhook URL: events as {\"text\": …} (repeatable).", valueName: "url")) var slackWebhooks: [String] = []
    @Option(name: .customLong("reconcile-interval"), help: "Seconds between reconciliations (0: only on start and on demand; default 3600).") var reconcileInterval: Double?
    @Option(name: .customLong("reconcile-concurrency"), help: "Server API calls a reconcile pass has in flight (default 8; paced to Apple's rates on Apple's hosts).") var reconcileConcurrency: Int?
    @Option(name: .customLong("webhook-retry-base"), help: "Seconds before the first webhook retry; doubles each time (default 5).") var webhookRetryBase: Double?
    @Option(name: .customLong("webhook-lease"), help: "Seconds an instance holds the webhook deliveries it took before another instance may make them (default 60; at least 16).") var webhookLease: Double?
    @Option(name: .customLong("api-token"), help: "Require 'Authorization: Bearer <token>' on /v1/*.") var apiToken: String?
    @Option(name: .customLong("log-level"), help: "trace … critical (default info).") var logLevel = "info"

    func settings() throws -> BackendConfiguration {
        var settings = try config.map(BackendConfiguration.load(path:)) ?? BackendConfiguration()
        if let host { settings.host = host }
        if let port { settings.port = port }
        if let database = database ?? Env.value("OPENSTORE_BACKEND_DATABASE_URL") { settings.database = database }
        if let reconcileInterval { settings.reconcileIntervalSeconds = reconcileInterval }
        if let reconcileConcurrency { settings.reconcileConcurrency = reconcileConcurrency }
        if let webhookRetryBase { settings.webhookRetryBaseSeconds = webhookRetryBase }
        if let webhookLease { settings.webhookLeaseSeconds = webhookLease }
        if let apiToken { settings.apiToken = apiToken }
        for hook in webhooks {
            guard let cut = hook.lastIndex(of: "="), hook[..<cut].contains("://") else {
                throw BackendConfigurationError("--webhook takes URL=SECRET, got \(hook)")
            }
            settings.webhooks.append(WebhookTarget(url: String(hook[..<cut]), secret: String(hook[hook.index(after: cut)...])))
        }
        for url in slackWebhooks { settings.webhooks.append(WebhookTarget(url: url, secret: "", format: "slack")) }
        if let bundleId {
            var app = settings.apps.first(where: { $0.bundleId == bundleId }) ?? AppConfiguration(bundleId: bundleId)
            if let appAppleId { app.appAppleId = appAppleId }
            if !environments.isEmpty {
                app.environments = environments.map { StoreEnvironmentName.canonical($0) }
            }
            if noAppleRoot { app.trustAppleRoot = false }
            app.trustedRootFiles += trustRoots
            if let apiKey {
                guard let keyId, let issuerId else { throw BackendConfigurationError("--api-key needs --key-id and --issuer-id") }
                app.apiKey = APIKeyConfiguration(privateKeyFile: apiKey, keyId: keyId, issuerId: issuerId)
            }
            if let apiBaseURL { app.apiBaseURL = apiBaseURL }
            if let refundControl { app.refundControl.policy = refundControl }
            if let refundConsent { app.refundControl.consent = refundConsent }
            if smallBusinessProgram { app.smallBusinessProgram = true }
            if let transferPolicy { app.transferPolicy = transferPolicy }
            for pair in entitlementPairs {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw BackendConfigurationError("--entitlement takes product=entitlement, got \(pair)")
                }
                app.entitlements[parts[0]] = parts[1]
            }
            settings.apps.removeAll { $0.bundleId == bundleId }
            settings.apps.append(app)
        }
        try settings.validate()
        return settings
    }

    func validate() throws {
        do { _ = try settings() } catch let error as BackendConfigurationError { throw ValidationError(error.description) }
    }

    func run() async throws {
        let settings: BackendConfiguration
        do { settings = try self.settings() } catch let error as BackendConfigurationError { throw ValidationError(error.description) }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            // The web framework's start/stop chatter stays below the backend's own start line.
            handler.logLevel = label.hasPrefix("Hummingbird") && level > .debug ? .warning : level
            return handler
        }
        let logger = Logger(label: "openstore.backend")
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            var storeRoots: [[UInt8]] = []
            for url in trustStores { storeRoots.append(try await Self.fetchRoot(url, http: http)) }
            let database = try await BackendDatabase.open(url: settings.database)
            let service = BackendService(configuration: settings, database: database, extraRootsDER: storeRoots, http: http, logger: logger)
            let host = settings.host
            try await service.run(handlesSignals: true) { port in
                var lines = ["OpenStoreKit backend listening on http://\(host):\(port)  (database: \(database.engine == .postgres ? "PostgreSQL" : settings.database))"]
                for app in settings.apps {
                    lines.append("  \(app.bundleId): notification URL http://\(host):\(port)/apple/notifications/\(app.bundleId)")
                }
                FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            }
            await database.close()
            try await http.shutdown()
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// A store's root certificate (DER) from its base URL or the full certificate URL.
    static func fetchRoot(_ url: String, http: HTTPClient) async throws -> [UInt8] {
        var target = url
        if let parsed = URL(string: url), parsed.path.isEmpty || parsed.path == "/" {
            target = (url.hasSuffix("/") ? String(url.dropLast()) : url) + "/storekit/v1/root-certificate"
        }
        do {
            let response = try await http.execute(HTTPClientRequest(url: target), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok else { throw ValidationError("\(target) answered \(response.status.code)") }
            return Array(buffer: body)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("cannot fetch the store's root certificate from \(target): \(error)")
        }
    }
}

/// Apple's spelling of an environment, whatever case it was typed in.
enum StoreEnvironmentName {
    static func canonical(_ text: String) -> String {
        ["Production", "Sandbox", "Xcode", "LocalTesting"].first { $0.lowercased() == text.lowercased() } ?? text
    }
}

extension RefundControlConfiguration.Policy: ExpressibleByArgument {}
extension RefundControlConfiguration.Consent: ExpressibleByArgument {}
extension TransferPolicy: ExpressibleByArgument {}
