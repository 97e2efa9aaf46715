import Foundation
import StoreModel
import StoreStorage

/// An app's notification URLs in one world, per environment.
public struct NotificationURLs: Codable, Sendable, Equatable {
    public var bundleId: String
    /// The environment the app's notifications are sent in (its own); its URL is the one used.
    public var environment: String
    public var productionURL: String?
    public var sandboxURL: String?
}

/// A notification as the admin API and the CLI show it: decoded, with its delivery state.
public struct NotificationSummary: Codable, Sendable, Equatable {
    public var seq: Int64
    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    public var bundleId: String
    public var customer: String
    public var environment: String
    public var transactionId: String?
    public var originalTransactionId: String?
    public var signedDate: Int64
    public var delivered: Bool
    public var nextAttemptDate: Int64?
    public var sendAttempts: [SendAttempt]
    public var testNotificationToken: String?

    public struct SendAttempt: Codable, Sendable, Equatable {
        public var attemptDate: Int64
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

    /// Sets (or with nil/empty removes) where an app's notifications go in a world, for one
    /// environment (default: the app's own).
    public func setNotificationURL(_ url: String?, bundleId: String, environment: String? = nil, world: String = AppStore.defaultWorld) async throws -> NotificationURLs {
        let app = try app(bundleId)
        _ = try await self.world(world)
        guard let env = StoreEnvironment(lenient: environment ?? app.environment.rawValue),
              env == .production || env == .sandbox else {
            throw StoreError.malformedRequest("environment must be Sandbox or Production")
        }
        let trimmed = url?.trimmingCharacters(in: .whitespaces) ?? ""
        if !trimmed.isEmpty {
            guard let parsed = URL(string: trimmed), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  parsed.host?.isEmpty == false, trimmed.count <= 2048 else {
                throw StoreError.malformedRequest("the notification URL must be an absolute http:// or https:// URL")
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

    public func notificationURLs(bundleId: String, world: String = AppStore.defaultWorld) async throws -> NotificationURLs {
        let app = try app(bundleId)
        _ = try await self.world(world)
        func url(_ env: StoreEnvironment) async throws -> String? {
            try await worlds.env.notificationURLs.url(database: database, world: world, bundleId: bundleId, environment: env.rawValue)
        }
        return NotificationURLs(
            bundleId: bundleId, environment: app.environment.rawValue,
            productionURL: try await url(.production), sandboxURL: try await url(.sandbox))
    }

    /// The URL a notification of the app goes to, in the app's environment; nil when none is set.
    public func notificationURL(bundleId: String, environment: String, world: String) async throws -> String? {
        try await worlds.env.notificationURLs.url(database: database, world: world, bundleId: bundleId, environment: environment)
    }

    // MARK: Outbox

    /// The `signedPayload` of a stored notification, signed now with unchanged content.
    func signedPayload(of record: NotificationRecord) -> String {
        NotificationPayload.sign(record, signer: signer)
    }

    /// A world's notifications in emission order (for the admin API, the CLI and tests).
    public func notifications(world: String = AppStore.defaultWorld, bundleId: String? = nil, afterSeq: Int64 = 0, limit: Int = 1000) async throws -> [NotificationSummary] {
        _ = try await self.world(world)
        return try await database.notifications(world: world, bundleId: bundleId, afterSeq: afterSeq, limit: max(1, min(limit, 10_000)))
            .map(NotificationSummary.init)
    }

    /// Queues a TEST notification (data: appAppleId, bundleId, environment only) and returns its
    /// `testNotificationToken`. Fails with 4040007 when the app has no URL in its environment.
    func queueTestNotification(bundleId: String, world: String) async throws -> String {
        let app = try app(bundleId)
        let world = try await self.world(world)
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
    public static let startDateTooFarInPast = ServerAPIError(code: 4_000_012, message: "Invalid request. The start date is earlier than the allowed start date.")
    public static let invalidPaginationToken = ServerAPIError(code: 4_000_014, message: "Invalid request. The pagination token is invalid.")
    public static let invalidNotificationType = ServerAPIError(code: 4_000_018, message: "Invalid request. The notification type or subtype is invalid.")
    public static let multipleFiltersSupplied = ServerAPIError(code: 4_000_019, message: "Invalid request. Too many constraints were provided.")
    public static let invalidTestNotificationToken = ServerAPIError(code: 4_000_020, message: "Invalid request. The test notification token is invalid.")
    public static let serverNotificationURLNotFound = ServerAPIError(code: 4_040_007, message: "No App Store Server Notification URL found for provided app. Check that a URL is configured in App Store Connect for this environment.")
    public static let testNotificationNotFound = ServerAPIError(code: 4_040_008, message: "Either the test notification token is expired or the notification and status are not yet available.")
}
