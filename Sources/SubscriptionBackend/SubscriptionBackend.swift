import Foundation
import Logging
import StoreShared
import StoreSigning

/// The developer's subscription backend: takes signed App Store data in (notifications, the
/// app's transactions, Server API answers), keeps each customer's state, and makes events.
/// Holds no HTTP: `BackendHTTPServer` maps requests onto it.
public final class SubscriptionBackend: Sendable {
    /// Validated by `init`: a backend never runs with a configuration `validate()` refuses.
    public let configuration: BackendConfiguration
    /// Where customers, their purchases, events and the webhook outbox live.
    public let database: BackendDatabase
    let checkers: [String: SignedDataChecker]
    let logger: Logger
    /// The last 100 refusals, for `/v1/admin/rejections`.
    public let rejections = RejectionLog()
    /// Called after a commit that made events, so deliveries start without waiting for a poll.
    let onEvents: @Sendable () -> Void
    /// The backend's time: when events happen, webhooks are due and customer info is dated.
    public let clock: WallClock
    /// Ingest's group commit: concurrent notifications and app posts share transactions.
    let ingest: IngestBatcher
    /// Customers' `lastSeen`, saved in the background.
    let lastSeen: LastSeenRecorder
    /// New identifiers (a grant's, a deleted customer's stand-in): injected so tests may fix them.
    let uuids: @Sendable () -> UUID

    /// Validates the configuration and builds each app's checker from its roots: Apple's
    /// (fingerprint-checked) when trusted, the app's root files, then `extraRootsDER`.
    public init(configuration: BackendConfiguration, database: BackendDatabase, extraRootsDER: [[UInt8]] = [],
                logger: Logger = Logger(label: "backend"), clock: WallClock = .system,
                uuids: @escaping @Sendable () -> UUID = { UUID() },
                onEvents: @escaping @Sendable () -> Void = {}) throws {
        try configuration.validate()
        self.clock = clock
        self.uuids = uuids
        self.lastSeen = LastSeenRecorder(database: database)
        self.configuration = configuration
        self.database = database
        self.ingest = IngestBatcher(database: database)
        self.logger = logger
        self.onEvents = onEvents
        var checkers: [String: SignedDataChecker] = [:]
        let apple = try AppleRootCertificate.der()
        for app in configuration.apps {
            var roots = app.trustAppleRoot ? [apple] : []
            for file in app.trustedRootFiles {
                roots.append(try RootCertificateFile.der(from: Data(contentsOf: URL(fileURLWithPath: file))))
            }
            roots += extraRootsDER
            checkers[app.bundleId] = try SignedDataChecker(app: app, rootsDER: roots)
        }
        self.checkers = checkers
    }

    func nowMs() -> Int64 { clock.nowMs() }

    /// What became of a notification.
    public enum Outcome: String, Sendable { case applied, duplicate }

    /// Verifies and applies one notification; returns only after the commit.
    public func receiveNotification(bundleId: String, signedPayload: String) async throws -> Outcome {
        guard let checker = checkers[bundleId] else {
            throw rejected(.wrongBundle("no app \(bundleId) is configured"), bundleId: bundleId, what: "notification")
        }
        let notification: VerifiedNotification
        do {
            notification = try checker.notification(signedPayload)
        } catch {
            throw rejected(error, bundleId: bundleId, what: "notification")
        }
        let applied = try await apply(notification, app: checker.app)
        return applied ? .applied : .duplicate
    }

    func apply(_ notification: VerifiedNotification, app: AppConfiguration) async throws -> Bool {
        let webhooks = configuration.webhooks
        let (applied, events) = try await ingest.write(keys: LedgerWriter.keys(notification, app: app)) { store in
            var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: self.nowMs())
            let applied = try await writer.apply(notification)
            return (applied, writer.events.count)
        }
        if events > 0 { onEvents() }
        return applied
    }

    /// A transaction the app sends (`jwsRepresentation`), linked to `appUserId`, the poster: a
    /// purchase another customer has merges (an anonymous one), moves or stays by the app's
    /// transfer policy (`LedgerWriter.link`). Returns the poster's info after the commit.
    public func receiveTransaction(appUserId: String, signedTransaction: String) async throws -> CustomerInfo {
        guard !appUserId.isEmpty, appUserId.count <= 256 else { throw BackendRequestError("appUserId must be 1–256 characters") }
        let checker = try checker(for: signedTransaction, what: "transaction")
        let transaction: SignedTransaction
        do {
            transaction = try checker.transaction(signedTransaction)
        } catch {
            throw rejected(error, bundleId: checker.app.bundleId, what: "transaction")
        }
        let webhooks = configuration.webhooks
        let (owner, events, keptWith) = try await ingest.write(keys: LedgerWriter.keys(transaction, appUserId: appUserId, app: checker.app)) { store in
            var writer = LedgerWriter(store: store, app: checker.app, webhooks: webhooks, nowMs: self.nowMs())
            let poster = try await store.resolve(appUserId)
            guard !CustomerIdentity.isDeleted(poster) else { throw StandInRefused() }
            try await writer.seeCustomer(poster, environment: transaction.fields.environment ?? "",
                                         signedMs: transaction.fields.signedDate ?? 0)
            try await writer.claim(token: transaction.fields.appAccountToken, for: poster)
            try await writer.apply(transaction, from: .app(poster))
            // Answered with the poster's own customer, whoever has the purchase: never another's.
            // (Applying merges others into the poster, never the poster away: it stays resolved.)
            return (poster, writer.events.count, writer.keptWith)
        }
        if events > 0 { onEvents() }
        if keptWith != nil { throw PurchaseBelongsToAnotherCustomer() }
        guard let info = try await customerInfo(appUserId: owner) else { throw CustomerVanished(id: owner) }
        return info
    }

    /// Customer info from the backend's own state; nil for an unknown customer.
    /// `appUserId` may be an alias (an ID merged in or logged in from). A read by the app
    /// (`seenByApp`, not the dashboard's or support's) is noted as the customer's `lastSeen`.
    public func customerInfo(appUserId: String, seenByApp: Bool = true) async throws -> CustomerInfo? {
        let info = try await CustomerInfoBuilder.load(appUserId: appUserId, database: database, apps: configuration.apps, wallMs: nowMs())
        if let info, seenByApp { lastSeen.saw(info.appUserId, atMs: nowMs()) }
        return info
    }

    /// Records a TEST event for `bundleId` (the first app when nil) and queues it to every webhook:
    /// RevenueCat's "Send test event", to check a receiver and its signature check.
    public func sendTestEvent(bundleId: String?) async throws -> WebhookPayload {
        guard let app = bundleId.map({ id in configuration.apps.first { $0.bundleId == id } }) ?? configuration.apps.first else {
            throw BackendRequestError("no app \(bundleId ?? "") is configured")
        }
        let webhooks = configuration.webhooks
        let payload = try await database.writeLedger { store in
            var writer = LedgerWriter(store: store, app: app, webhooks: webhooks, nowMs: self.nowMs())
            return try await writer.recordTest()
        }
        onEvents()
        return payload
    }

    /// The customer's events, oldest first.
    public func events(appUserId: String?, limit: Int) async throws -> [WebhookPayload] {
        var customer = appUserId
        if let appUserId { customer = try await database.customer(named: appUserId)?.appUserId ?? appUserId }
        let bodies = try await database.eventBodies(appUserId: customer, limit: max(1, min(limit, 1000)))
        return bodies.compactMap { try? JSONDecoder().decode(WebhookPayload.self, from: Data($0.utf8)) }
    }

    func rejected(_ error: SignedDataRejection, bundleId: String, what: String) -> SignedDataRejection {
        logger.warning("refused \(what)", metadata: ["bundleId": "\(bundleId)", "reason": "\(error.code)", "detail": "\(error.description)"])
        rejections.add(RejectionLog.Entry(atMs: nowMs(), what: what, bundleId: bundleId, reason: error.code, detail: error.description))
        return error
    }

    /// The bundle ID a transaction claims, read before verification only to pick the app's checker.
    /// The checker of the app a JWS the app posted names (the only app's, when there is one).
    func checker(for jws: String, what: String) throws -> SignedDataChecker {
        let bundleId = Self.unverifiedBundleId(jws)
        guard let checker = bundleId.flatMap({ checkers[$0] }) ?? (checkers.count == 1 ? checkers.values.first : nil) else {
            throw rejected(.wrongBundle("bundleId \(bundleId ?? "(none)") is not configured"), bundleId: bundleId ?? "", what: what)
        }
        return checker
    }

    static func unverifiedBundleId(_ jws: String) -> String? {
        guard let payload = JWSInspector.payload(of: jws),
              let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { return nil }
        return object["bundleId"] as? String
    }
}

/// A request the backend refuses for its own reasons (not signed-data checks).
public struct BackendRequestError: Error, Sendable, CustomStringConvertible {
    /// What to fix in the request; sent as a 400's message.
    public var description: String
    /// Wraps a ready-made message.
    public init(_ description: String) { self.description = description }
}

/// The last refusals, kept in memory for `/v1/admin/rejections` (the refused data itself is
/// stored nowhere; the log says who sent what kind of thing and why it was refused).
public final class RejectionLog: @unchecked Sendable {
    /// One refusal: when, what kind of data, for which app, and why.
    public struct Entry: Codable, Sendable {
        /// When, by the backend's clock.
        public var atMs: Int64
        /// What was refused: `notification` or `transaction`.
        public var what: String
        /// The app it was sent for; "" when it named none.
        public var bundleId: String
        /// `SignedDataRejection.code`, such as `verificationFailed`.
        public var reason: String
        /// The rejection's description: what was expected and what came.
        public var detail: String
    }
    private let lock = NSLock()
    private var entries: [Entry] = []

    func add(_ entry: Entry) {
        lock.lock()
        defer { lock.unlock() }
        entries.append(entry)
        if entries.count > 100 { entries.removeFirst(entries.count - 100) }
    }

    /// A copy of the entries, oldest first.
    public var all: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}
