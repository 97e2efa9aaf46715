import Foundation
import StoreModel

/// Everything `openstore backend` needs, as read from `backend.json` (flags override it). One
/// backend serves several apps; each app says what it trusts and how to reach its Server API.
public struct BackendConfiguration: Codable, Sendable, Equatable {
    /// Address to bind; loopback unless told otherwise.
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Where the backend's own state lives: a SQLite file (a path or `sqlite:PATH`) or a
    /// `postgres://` URL, as the store's `--database` takes it.
    public var database: String
    /// The apps served; `validate()` wants at least one, each bundle ID once.
    public var apps: [AppConfiguration]
    /// Where every event is sent; each URL gets its own outbox row per event, retried on its own.
    public var webhooks: [WebhookTarget]
    /// Seconds between reconciliations through the Server API (0: only on start and on demand).
    public var reconcileIntervalSeconds: Double
    /// First retry delay of a failed webhook; each further retry doubles it.
    public var webhookRetryBaseSeconds: Double
    /// Longest delay between two webhook attempts.
    public var webhookRetryMaxSeconds: Double
    /// Attempts before a webhook delivery is given up (it stays in the delivery log as failed).
    public var webhookMaxAttempts: Int
    /// When set, `/v1/*` requires `Authorization: Bearer <token>`.
    public var apiToken: String?
    /// Server API calls a reconcile pass has in flight at once (Transaction History per customer,
    /// All Subscription Statuses per subscription). Against Apple's hosts the calls are also
    /// paced to Apple's published rates (`ServerAPIPacer`).
    public var reconcileConcurrency: Int
    /// How long an instance holds the webhook deliveries it took from the outbox before another
    /// instance may take them (the instance died). A delivery starts only while at least the
    /// delivery timeout and a margin of the hold remain, so a live instance never overlaps another.
    public var webhookLeaseSeconds: Double

    /// Defaults: loopback on port 8081, a SQLite file under `.openstore-backend/`, hourly
    /// reconciliation, webhooks retried from 5 s up to an hour, 10 attempts.
    public init(
        host: String = "127.0.0.1", port: Int = 8081, database: String = ".openstore-backend/backend.sqlite",
        apps: [AppConfiguration] = [], webhooks: [WebhookTarget] = [], reconcileIntervalSeconds: Double = 3600,
        webhookRetryBaseSeconds: Double = 5, webhookRetryMaxSeconds: Double = 3600, webhookMaxAttempts: Int = 10,
        apiToken: String? = nil, reconcileConcurrency: Int = 8, webhookLeaseSeconds: Double = 60
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.apps = apps
        self.webhooks = webhooks
        self.reconcileIntervalSeconds = reconcileIntervalSeconds
        self.webhookRetryBaseSeconds = webhookRetryBaseSeconds
        self.webhookRetryMaxSeconds = webhookRetryMaxSeconds
        self.webhookMaxAttempts = webhookMaxAttempts
        self.apiToken = apiToken
        self.reconcileConcurrency = reconcileConcurrency
        self.webhookLeaseSeconds = webhookLeaseSeconds
    }

    enum CodingKeys: String, CodingKey {
        case host, port, database, apps, webhooks, reconcileIntervalSeconds, webhookRetryBaseSeconds
        case webhookRetryMaxSeconds, webhookMaxAttempts, apiToken, reconcileConcurrency, webhookLeaseSeconds
    }

    /// Missing keys take their defaults, so a file may hold only what differs.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = BackendConfiguration()
        host = try c.decodeIfPresent(String.self, forKey: .host) ?? d.host
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? d.port
        database = try c.decodeIfPresent(String.self, forKey: .database) ?? d.database
        apps = try c.decodeIfPresent([AppConfiguration].self, forKey: .apps) ?? []
        webhooks = try c.decodeIfPresent([WebhookTarget].self, forKey: .webhooks) ?? []
        reconcileIntervalSeconds = try c.decodeIfPresent(Double.self, forKey: .reconcileIntervalSeconds) ?? d.reconcileIntervalSeconds
        webhookRetryBaseSeconds = try c.decodeIfPresent(Double.self, forKey: .webhookRetryBaseSeconds) ?? d.webhookRetryBaseSeconds
        webhookRetryMaxSeconds = try c.decodeIfPresent(Double.self, forKey: .webhookRetryMaxSeconds) ?? d.webhookRetryMaxSeconds
        webhookMaxAttempts = try c.decodeIfPresent(Int.self, forKey: .webhookMaxAttempts) ?? d.webhookMaxAttempts
        apiToken = try c.decodeIfPresent(String.self, forKey: .apiToken)
        reconcileConcurrency = try c.decodeIfPresent(Int.self, forKey: .reconcileConcurrency) ?? d.reconcileConcurrency
        webhookLeaseSeconds = try c.decodeIfPresent(Double.self, forKey: .webhookLeaseSeconds) ?? d.webhookLeaseSeconds
    }

    /// Reads `backend.json`; a broken file is reported with the JSON path of the fault.
    public static func load(path: String) throws -> BackendConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw BackendConfigurationError("cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(BackendConfiguration.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw BackendConfigurationError("\(path): \(Self.jsonPath(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw BackendConfigurationError("\(path): \(Self.jsonPath(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw BackendConfigurationError("\(path): \(Self.jsonPath(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw BackendConfigurationError("\(path): \(error)")
        }
    }

    static func jsonPath(_ path: [any CodingKey]) -> String {
        "$" + path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    /// Problems that would make the backend refuse or misread data, found before it starts.
    public func validate() throws {
        if apps.isEmpty { throw BackendConfigurationError("no app configured: give --bundle-id or apps in backend.json") }
        if !(1...256).contains(reconcileConcurrency) {
            throw BackendConfigurationError("$.reconcileConcurrency \(reconcileConcurrency) must be 1 to 256 (Server API calls a reconcile pass has in flight)")
        }
        var seen = Set<String>()
        for (index, app) in apps.enumerated() {
            let at = "$.apps[\(index)]"
            if app.bundleId.isEmpty { throw BackendConfigurationError("\(at).bundleId is empty") }
            if !seen.insert(app.bundleId).inserted { throw BackendConfigurationError("\(at).bundleId \(app.bundleId) is configured twice") }
            if app.environments.isEmpty { throw BackendConfigurationError("\(at).environments is empty") }
            for environment in app.environments where StoreEnvironment(rawValue: environment) == nil {
                throw BackendConfigurationError("\(at).environments: \(environment) is not Production, Sandbox, Xcode or LocalTesting")
            }
            if app.refundControl.policy != .off && app.apiKey == nil {
                throw BackendConfigurationError("\(at).refundControl.policy \(app.refundControl.policy.rawValue) needs \(at).apiKey: answers go through the Server API")
            }
            if app.environments.contains("Production") && app.appAppleId == nil {
                throw BackendConfigurationError("\(at).appAppleId is required when Production is accepted (Apple's verifier requires it too)")
            }
        }
        for (index, hook) in webhooks.enumerated() {
            let at = "$.webhooks[\(index)]"
            guard let url = URL(string: hook.url), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
                throw BackendConfigurationError("\(at).url is not an http(s) URL")
            }
            for environment in hook.environments where StoreEnvironment(rawValue: environment) == nil {
                throw BackendConfigurationError("\(at).environments: \(environment) is not Production, Sandbox, Xcode or LocalTesting")
            }
            for type in hook.eventTypes where EventType(rawValue: type) == nil {
                throw BackendConfigurationError("\(at).eventTypes: \(type) is not an event type (\(EventType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            for app in hook.apps where !apps.contains(where: { $0.bundleId == app }) {
                throw BackendConfigurationError("\(at).apps: \(app) is not one of the configured apps")
            }
            if let header = hook.authorization, header.isEmpty || header.contains(where: { $0.isNewline }) {
                throw BackendConfigurationError("\(at).authorization must be one line of text")
            }
        }
        if webhookMaxAttempts < 1 { throw BackendConfigurationError("$.webhookMaxAttempts must be at least 1") }
        let shortestLease = WebhookDispatcher.deliveryTimeoutSeconds + WebhookDispatcher.leaseMarginSeconds + 1
        if !(webhookLeaseSeconds >= shortestLease && webhookLeaseSeconds <= 86_400) {
            throw BackendConfigurationError("$.webhookLeaseSeconds \(webhookLeaseSeconds) must be \(Int(shortestLease)) to 86400 (a delivery's timeout, \(Int(WebhookDispatcher.deliveryTimeoutSeconds)) s, and a margin must fit in it)")
        }
        // The customer and admin API is open on loopback only; anywhere else it needs a token.
        if !["127.0.0.1", "::1", "localhost"].contains(host), (apiToken ?? "").isEmpty {
            throw BackendConfigurationError("$.host \(host) is not loopback: set apiToken (--api-token) so /v1/* needs a bearer token")
        }
    }
}

/// One app the backend serves.
public struct AppConfiguration: Codable, Sendable, Equatable {
    /// Signed data for any other app is refused; also the `{bundleId}` of `/apple/notifications/{bundleId}`.
    public var bundleId: String
    /// Required for Production: Apple's verifier checks it there.
    public var appAppleId: Int64?
    /// `Production`, `Sandbox` (default both).
    public var environments: [String]
    /// Trust Apple Root CA - G3 (shipped with the backend). Default true.
    public var trustAppleRoot: Bool
    /// Further roots, as DER or PEM files (an OpenStoreKit store's root from `openstore keys root`).
    public var trustedRootFiles: [String]
    /// Server API credentials; without them the backend cannot reconcile.
    public var apiKey: APIKeyConfiguration?
    /// The Server API's base URL; default Apple's host for each environment.
    public var apiBaseURL: String?
    /// product ID → entitlement name; products not listed get the default (their subscription
    /// group's ID for subscriptions, their own ID otherwise).
    public var entitlements: [String: String]
    /// How CONSUMPTION_REQUEST is answered (off unless set; answering needs `apiKey`).
    public var refundControl: RefundControlConfiguration
    /// The developer is in Apple's App Store Small Business Program: 15 % commission on every
    /// transaction (the webhooks' `proceeds`). Default false.
    public var smallBusinessProgram: Bool
    /// What happens when the app posts a purchase another identified customer has (default `transfer`,
    /// as RevenueCat's default). Purchases of anonymous customers always merge into the poster.
    public var transferPolicy: TransferPolicy

    /// Defaults accept Production and Sandbox and trust Apple's root only.
    public init(
        bundleId: String, appAppleId: Int64? = nil, environments: [String] = ["Production", "Sandbox"],
        trustAppleRoot: Bool = true, trustedRootFiles: [String] = [], apiKey: APIKeyConfiguration? = nil,
        apiBaseURL: String? = nil, entitlements: [String: String] = [:], refundControl: RefundControlConfiguration = .init(),
        smallBusinessProgram: Bool = false, transferPolicy: TransferPolicy = .transfer
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
        self.trustAppleRoot = trustAppleRoot
        self.trustedRootFiles = trustedRootFiles
        self.apiKey = apiKey
        self.apiBaseURL = apiBaseURL
        self.entitlements = entitlements
        self.refundControl = refundControl
        self.smallBusinessProgram = smallBusinessProgram
        self.transferPolicy = transferPolicy
    }

    enum CodingKeys: String, CodingKey {
        case bundleId, appAppleId, environments, trustAppleRoot, trustedRootFiles, apiKey, apiBaseURL, entitlements, refundControl
        case smallBusinessProgram, transferPolicy
    }

    /// Only `bundleId` is required; missing keys take the same defaults as `init`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bundleId = try c.decode(String.self, forKey: .bundleId)
        appAppleId = try c.decodeIfPresent(Int64.self, forKey: .appAppleId)
        environments = try c.decodeIfPresent([String].self, forKey: .environments) ?? ["Production", "Sandbox"]
        trustAppleRoot = try c.decodeIfPresent(Bool.self, forKey: .trustAppleRoot) ?? true
        trustedRootFiles = try c.decodeIfPresent([String].self, forKey: .trustedRootFiles) ?? []
        apiKey = try c.decodeIfPresent(APIKeyConfiguration.self, forKey: .apiKey)
        apiBaseURL = try c.decodeIfPresent(String.self, forKey: .apiBaseURL)
        entitlements = try c.decodeIfPresent([String: String].self, forKey: .entitlements) ?? [:]
        refundControl = try c.decodeIfPresent(RefundControlConfiguration.self, forKey: .refundControl) ?? .init()
        smallBusinessProgram = try c.decodeIfPresent(Bool.self, forKey: .smallBusinessProgram) ?? false
        transferPolicy = try c.decodeIfPresent(TransferPolicy.self, forKey: .transferPolicy) ?? .transfer
    }

    /// Apple's Server API host for an environment (reference §1.1), unless a base URL is configured.
    public func baseURL(environment: String) -> String {
        if let apiBaseURL { return apiBaseURL.hasSuffix("/") ? String(apiBaseURL.dropLast()) : apiBaseURL }
        return environment == "Production" ? "https://api.storekit.apple.com" : "https://api.storekit-sandbox.apple.com"
    }
}

/// A Server API key as App Store Connect gives it: the `.p8` file, its key ID, the issuer ID.
public struct APIKeyConfiguration: Codable, Sendable, Equatable {
    /// Path of the `.p8` file, read at every reconciliation pass (an unreadable one is reported in the pass).
    public var privateKeyFile: String
    /// The key's ID in App Store Connect: the bearer token's `kid`.
    public var keyId: String
    /// The team's issuer ID from App Store Connect: the bearer token's `iss`.
    public var issuerId: String

    /// The three values App Store Connect shows for a key, as `backend.json` or the CLI flags give them.
    public init(privateKeyFile: String, keyId: String, issuerId: String) {
        self.privateKeyFile = privateKeyFile
        self.keyId = keyId
        self.issuerId = issuerId
    }
}

/// A URL that receives the backend's events, with RevenueCat's per-webhook choices: which
/// environments, event types and apps it gets, and an `Authorization` header sent with each.
public struct WebhookTarget: Codable, Sendable, Equatable {
    /// An http(s) URL (`validate()` checks); events are POSTed to it.
    public var url: String
    /// The HMAC-SHA256 key for the `OpenStore-Signature` header.
    public var secret: String
    /// `json` (default): the event as JSON. `slack`: `{"text": …}` for a Slack incoming webhook.
    public var format: String
    /// Only events of these environments (`Production`, `Sandbox`); empty: all.
    public var environments: [String]
    /// Only events of these types (`EventType` raw values); empty: all.
    public var eventTypes: [String]
    /// Only events of these apps (bundle IDs); empty: all.
    public var apps: [String]
    /// Sent as the `Authorization` header of every delivery, for a receiver that checks one.
    public var authorization: String?

    /// `format` defaults to the plain JSON event; no filters; no `Authorization` header.
    public init(url: String, secret: String, format: String = "json", environments: [String] = [], eventTypes: [String] = [],
                apps: [String] = [], authorization: String? = nil) {
        self.url = url
        self.secret = secret
        self.format = format
        self.environments = environments
        self.eventTypes = eventTypes
        self.apps = apps
        self.authorization = authorization
    }

    enum CodingKeys: String, CodingKey { case url, secret, format, environments, eventTypes, apps, authorization }

    /// Only `url` is required: without `secret` the signature uses an empty key; without `format`, JSON.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decode(String.self, forKey: .url)
        secret = try c.decodeIfPresent(String.self, forKey: .secret) ?? ""
        format = try c.decodeIfPresent(String.self, forKey: .format) ?? "json"
        environments = try c.decodeIfPresent([String].self, forKey: .environments) ?? []
        eventTypes = try c.decodeIfPresent([String].self, forKey: .eventTypes) ?? []
        apps = try c.decodeIfPresent([String].self, forKey: .apps) ?? []
        authorization = try c.decodeIfPresent(String.self, forKey: .authorization)
    }

    /// Whether an event of this type, environment and app goes to this URL. A `TEST` event goes to
    /// every URL whatever its filters: it checks the connection.
    public func accepts(type: String, environment: String, bundleId: String) -> Bool {
        if type == EventType.test.rawValue { return true }
        return (environments.isEmpty || environments.contains(environment)) && (eventTypes.isEmpty || eventTypes.contains(type))
            && (apps.isEmpty || apps.contains(bundleId))
    }
}

/// A configuration the backend will not start with (or a root certificate it cannot read); the
/// message names the JSON path at fault where there is one, such as `$.apps[0].bundleId`.
public struct BackendConfigurationError: Error, CustomStringConvertible, Sendable {
    /// Written for the operator: what is wrong and, where it helps, the key or flag to set.
    public var description: String
    /// Wraps a ready-made message.
    public init(_ description: String) { self.description = description }
}
