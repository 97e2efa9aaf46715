import Foundation
import StoreModel
import StoreStorage

/// `SendTestNotificationResponse`.
public struct SendTestNotificationResponse: Codable, Sendable, Equatable {
    /// The token to pass to Get Test Notification Status.
    public var testNotificationToken: String
}

/// `CheckTestNotificationResponse` and `NotificationHistoryResponseItem`: a notification as
/// signed now (same content and UUID as delivered) with every attempt to send it.
public struct SignedNotificationItem: Codable, Sendable, Equatable {
    /// The notification's JWS, as the receiver got (or will get) it.
    public var signedPayload: String
    /// Every attempt to deliver it so far, oldest first.
    public var sendAttempts: [NotificationSummary.SendAttempt]
}

/// `NotificationHistoryResponse`.
public struct NotificationHistoryResponse: Codable, Sendable, Equatable {
    /// Passed back to get the next page; nil on the last page.
    public var paginationToken: String?
    /// Whether more notifications match than this page holds.
    public var hasMore: Bool
    /// Up to 20 notifications in the order they were issued (`TEST` notifications left out).
    public var notificationHistory: [SignedNotificationItem]
}

/// Server API endpoints 6–8 (reference §1.3–1.4): Request a Test Notification, Get Test
/// Notification Status, Get Notification History. The caller's key picks the app and world.
extension AppStore {
    static let notificationHistoryPageSize = 20
    static let notificationHistoryKeys: Set<String> = [
        "startDate", "endDate", "notificationType", "notificationSubtype", "transactionId", "onlyFailures",
    ]

    /// Request a Test Notification: queues a `TEST` notification to the app's URL and returns its token.
    public func requestTestNotification(caller: ServerAPICaller) async throws -> SendTestNotificationResponse {
        let app = try serverAPIApp(caller)
        return SendTestNotificationResponse(testNotificationToken: try await queueTestNotification(bundleId: app.bundleId, world: caller.world))
    }

    /// Get Test Notification Status: the test notification with `token`, with its send attempts.
    public func testNotificationStatus(token: String, caller: ServerAPICaller) async throws -> SignedNotificationItem {
        let app = try serverAPIApp(caller)
        guard !token.isEmpty, token.count <= 128 else { throw ServerAPIError.invalidTestNotificationToken }
        guard let record = try await database.notification(testToken: token.lowercased()),
              record.world == caller.world, record.bundleId == app.bundleId
        else { throw ServerAPIError.testNotificationNotFound }
        return item(record)
    }

    /// Get Notification History: the app's notifications in a date range (`NotificationHistoryRequest`),
    /// optionally by type or transaction, 20 a page.
    public func notificationHistory(body: Data, paginationToken: String?, caller: ServerAPICaller) async throws -> NotificationHistoryResponse {
        let app = try serverAPIApp(caller)
        guard let fields = JSONValue.object(from: body) else { throw ServerAPIError.generalBadRequest }
        // Only `NotificationHistoryRequest`'s documented keys (API 1.8+); `originalTransactionId`
        // was replaced by `transactionId` in 1.8.
        if let unknown = fields.keys.sorted().first(where: { !Self.notificationHistoryKeys.contains($0) }) {
            throw ServerAPIError.unknownParameter(unknown)
        }
        guard let start = fields["startDate"]?.integer, start >= 0 else { throw ServerAPIError.invalidStartDate }
        guard let end = fields["endDate"]?.integer, end >= 0 else { throw ServerAPIError.invalidEndDate }
        guard start < end else { throw ServerAPIError.startDateAfterEndDate }
        func text(_ name: String) throws(ServerAPIError) -> String? {
            switch fields[name] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw name == "transactionId" ? .invalidTransactionId : .invalidNotificationType
            }
        }
        let type = try text("notificationType")
        let subtype = try text("notificationSubtype")
        let transactionId = try text("transactionId")
        let onlyFailures: Bool
        switch fields["onlyFailures"] {
        case nil, .null?: onlyFailures = false
        case .bool(let value)?: onlyFailures = value
        default: throw ServerAPIError.generalBadRequest
        }
        if type != nil && transactionId != nil { throw ServerAPIError.multipleFiltersSupplied }
        if let subtype, type == nil || !NotificationTypes.isValid(type: type!, subtype: subtype) { throw ServerAPIError.invalidNotificationType }
        if let type, !NotificationTypes.isValid(type: type, subtype: nil) { throw ServerAPIError.invalidNotificationType }
        var customer: String?
        if let transactionId { customer = try await serverAPITransaction(transactionId, caller: caller).record.customer }
        var afterSeq: Int64?
        if let paginationToken {
            guard let seq = Self.seq(ofPaginationToken: paginationToken) else { throw ServerAPIError.invalidPaginationToken }
            afterSeq = seq
        }
        let now = try await nowMs(caller.world)
        // Apple: startDate within the past 180 days; a future endDate means now.
        guard start >= now - NotificationRetryPolicy.retentionMs(environment: "Production") else { throw ServerAPIError.startDateTooFarInPast }
        let kept = now - NotificationRetryPolicy.retentionMs(environment: app.environment.rawValue)
        let rows = try await database.notificationHistory(NotificationHistoryQuery(
            world: caller.world, bundleId: app.bundleId, startMs: max(start, kept), endMs: min(end, now + 1), type: type,
            subtype: subtype, customer: customer, onlyFailures: onlyFailures, afterSeq: afterSeq,
            limit: Self.notificationHistoryPageSize + 1))
        let page = Array(rows.prefix(Self.notificationHistoryPageSize))
        let hasMore = rows.count > page.count
        return NotificationHistoryResponse(
            paginationToken: hasMore ? page.last.map { Self.paginationToken(afterSeq: $0.seq) } : nil,
            hasMore: hasMore, notificationHistory: page.map(item))
    }

    private func item(_ record: NotificationRecord) -> SignedNotificationItem {
        SignedNotificationItem(signedPayload: signedPayload(of: record), sendAttempts: NotificationSummary(record).sendAttempts)
    }

    /// Opaque to clients: the change number of the page's last row, as hex behind a marker.
    static func paginationToken(afterSeq seq: Int64) -> String { "nh" + String(seq, radix: 16) }

    static func seq(ofPaginationToken token: String) -> Int64? {
        guard token.hasPrefix("nh"), token.count <= 20, let seq = Int64(token.dropFirst(2), radix: 16), seq >= 0 else { return nil }
        return seq
    }
}
