import Foundation
import StoreModel
import StoreStorage

/// An app's notification URLs in one world, per environment.
public struct NotificationURLs: Codable, Sendable, Equatable {
    /// The app the URLs are for.
    public var bundleId: String
    /// The environment the app's notifications are sent in (its own); its URL is the one used.
    public var environment: String
    /// Where Production notifications go, as App Store Connect's Production Server URL; nil when unset.
    public var productionURL: String?
    /// Where Sandbox notifications go, as App Store Connect's Sandbox Server URL; nil when unset.
    public var sandboxURL: String?
}

/// A notification as the admin API and the CLI show it: decoded, with its delivery state.
public struct NotificationSummary: Codable, Sendable, Equatable {
    /// The store's change number for the notification; the admin API pages by it.
    public var seq: Int64
    /// The `notificationUUID` every delivery attempt carries.
    public var notificationUUID: String
    /// Apple's `notificationType`, such as `DID_RENEW` or `TEST`.
    public var notificationType: String
    /// Apple's `subtype`, when the type has one.
    public var subtype: String?
    /// The app the notification is about.
    public var bundleId: String
    /// The store customer it concerns; empty for a `TEST` notification.
    public var customer: String
    /// `Production` or `Sandbox`: the app's environment, whose URL it is sent to.
    public var environment: String
    /// The transaction it reports, if any.
    public var transactionId: String?
    /// The original transaction ID of that transaction, if any.
    public var originalTransactionId: String?
    /// When it was issued (`signedDate`, milliseconds on the world's clock).
    public var signedDate: Int64
    /// Whether a receiver has answered an attempt with success.
    public var delivered: Bool
    /// When the next attempt is due under Apple's retry schedule; nil when no attempt is left.
    public var nextAttemptDate: Int64?
    /// Every attempt so far, oldest first, as Get Notification History reports them.
    public var sendAttempts: [SendAttempt]
    /// For a `TEST` notification, the token Get Test Notification Status takes.
    public var testNotificationToken: String?

    /// Apple's `sendAttemptItem`: one attempt to deliver the notification.
    public struct SendAttempt: Codable, Sendable, Equatable {
        /// When the attempt was made, in milliseconds on the world's clock.
        public var attemptDate: Int64
        /// Apple's `sendAttemptResult`: `SUCCESS`, `TIMED_OUT`, `SOCKET_ISSUE`, ….
        public var sendAttemptResult: String
    }

    init(_ record: NotificationRecord) {
        seq = record.seq
        notificationUUID = record.uuid
        notificationType = record.type
        subtype = record.subtype
        bundleId = record.bundleId
        customer = record.customer
        environment = record.environment
        transactionId = record.transactionId.map(String.init)
        originalTransactionId = record.originalId.map(String.init)
        signedDate = record.signedMs
        delivered = record.delivered
        nextAttemptDate = record.nextAttemptMs
        sendAttempts = (try? JSONDecoder().decode([SendAttempt].self, from: Data(record.attempts.utf8))) ?? []
        testNotificationToken = record.testToken
    }
}

extension AppStore {
    // MARK: URLs

    func setNotificationURL(_ url: String?, bundleId: String, environment: String? = nil, world: String) async throws -> NotificationURLs {
        let app = try app(bundleId)
        _ = try await self.loadedWorld(world)
        guard let env = StoreEnvironment(lenient: environment ?? app.environment.rawValue),
              env == .production || env == .sandbox else {
            throw StoreError.malformedRequest("environment must be Sandbox or Production")
        }
        let trimmed = url?.trimmingCharacters(in: .whitespaces) ?? ""
        if !trimmed.isEmpty {
            guard let parsed = URL(string: trimmed), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  parsed.host?.isEmpty == false, trimmed.count <= 2048 else {
                throw StoreError.unprocessable("the notification URL must be an absolute http:// or https:// URL")
            }
        }
        let key = NotificationURLBook.key(bundleId: bundleId, environment: env.rawValue)
        if trimmed.isEmpty {
            try await database.deleteWorldRecord(world: world, kind: NotificationURLBook.kind, key: key)
        } else {
            try await database.write(WriteBatch(worldRecords: [WorldRecord(world: world, kind: NotificationURLBook.kind, key: key, value: trimmed)]))
        }
        worlds.env.notificationURLs.invalidate(world: world)
        return try await notificationURLs(bundleId: bundleId, world: world)
    }

    func notificationURLs(bundleId: String, world: String) async throws -> NotificationURLs {
        let app = try app(bundleId)
        _ = try await self.loadedWorld(world)
        func url(_ env: StoreEnvironment) async throws -> String? {
            try await worlds.env.notificationURLs.url(database: database, world: world, bundleId: bundleId, environment: env.rawValue)
        }
        return NotificationURLs(
            bundleId: bundleId, environment: app.environment.rawValue,
            productionURL: try await url(.production), sandboxURL: try await url(.sandbox))
    }

    func notificationURL(bundleId: String, environment: String, world: String) async throws -> String? {
        try await worlds.env.notificationURLs.url(database: database, world: world, bundleId: bundleId, environment: environment)
    }

    // MARK: Outbox

    /// The `signedPayload` of a stored notification, signed now with unchanged content.
    func signedPayload(of record: NotificationRecord) -> String {
        NotificationPayload.sign(record, signer: signer)
    }

    func notifications(world: String, bundleId: String? = nil, afterSeq: Int64 = 0, limit: Int = 1000) async throws -> [NotificationSummary] {
        _ = try await self.loadedWorld(world)
        return try await database.notifications(world: world, bundleId: bundleId, afterSeq: afterSeq, limit: max(1, min(limit, 10_000)))
            .map(NotificationSummary.init)
    }

    /// Queues a TEST notification (data: appAppleId, bundleId, environment only) and returns its
    /// `testNotificationToken`. Fails with 4040007 when the app has no URL in its environment.
    func queueTestNotification(bundleId: String, world: String) async throws -> String {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(world)
        guard try await notificationURL(bundleId: bundleId, environment: app.environment.rawValue, world: world.id) != nil else {
            throw ServerAPIError.serverNotificationURLNotFound
        }
        let now = await world.nowMs()
        let seq = worlds.env.identifiers.nextSeq()
        let token = worlds.env.identifiers.uuid()
        let record = NotificationRecord(
            seq: seq, uuid: worlds.env.identifiers.uuid(), world: world.id, bundleId: bundleId, customer: "",
            environment: app.environment.rawValue, type: NotificationType.test.rawValue, subtype: nil, transactionId: nil, originalId: nil,
            signedMs: now, bodyKey: "data", body: NotificationPayload.appDataBody(app: app), transactionJSON: nil,
            renewalJSON: nil, testToken: token, nextAttemptMs: now)
        // Recorded as an event too, so the change sequence survives a restart past it.
        let event = EventRecord(seq: seq, world: world.id, bundleId: bundleId, customer: "", type: NotificationType.test.rawValue, subtype: nil,
                                transactionId: nil, originalId: nil, atMs: now)
        var batch = WriteBatch(events: [event])
        batch.notifications = [.emit(record)]
        try await database.write(batch)
        worlds.env.outbox.signal()
        return token
    }
}

extension ServerAPIError {
    /// Apple's `StartDateTooFarInPastError`: Get Notification History's `startDate` is over 180 days ago.
    public static let startDateTooFarInPast = ServerAPIError(code: 4_000_012, message: "Invalid request. The start date is earlier than the allowed start date.")
    /// Apple's `InvalidPaginationTokenError`: a `paginationToken` this store did not issue.
    public static let invalidPaginationToken = ServerAPIError(code: 4_000_014, message: "Invalid request. The pagination token is invalid.")
    /// Apple's `InvalidNotificationTypeError`: an unknown `notificationType`, or a `notificationSubtype`
    /// that type does not have.
    public static let invalidNotificationType = ServerAPIError(code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid.")
    /// Apple's `MultipleFiltersSuppliedError`: both `notificationType` and `transactionId` were given.
    public static let multipleFiltersSupplied = ServerAPIError(code: 4_000_019, message: "Invalid request. Too many constraints were provided.")
    /// Apple's `InvalidTestNotificationTokenError`: an empty or over-long test notification token.
    public static let invalidTestNotificationToken = ServerAPIError(code: 4_000_020, message: "Invalid request. The test notification token is invalid.")
    /// Apple's `ServerNotificationUrlNotFoundError`: the app has no notification URL for its environment.
    public static let serverNotificationURLNotFound = ServerAPIError(code: 4_040_007, message: "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment.")
    /// Apple's `TestNotificationNotFoundError`: no test notification of the caller's app has that token.
    public static let testNotificationNotFound = ServerAPIError(code: 4_040_008, message: "Either the test notification token is expired or the notification and status are not yet available.")
}
