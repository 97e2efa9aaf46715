import Foundation
import Logging
import StoreEngine

extension NotificationDeliveryService {
    /// Logs a failed send attempt once, with what it was about (world, app, customer,
    /// transaction, notification) and where it went: the URL without credentials or query,
    /// which may hold a receiver's secret.
    func logFailedAttempt(_ notification: DueNotification, result: SendAttemptResult) {
        var metadata: Logger.Metadata = [
            "world": .string(notification.world), "app": .string(notification.bundleId), "customer": .string(notification.customer),
            "notification_uuid": .string(notification.notificationUUID),
            "notification_type": .string([notification.notificationType, notification.subtype].compactMap { $0 }.joined(separator: "/")),
            "send_attempt_result": .string(result.rawValue), "attempt": .stringConvertible(notification.attempt),
        ]
        if let transaction = notification.transactionId { metadata["transaction"] = .string(String(transaction)) }
        metadata["url"] = .string(notification.url.map(Self.redacted) ?? "none")
        logger.warning("notification delivery failed", metadata: metadata)
    }

    /// `scheme://host:port/path` of a URL: user, password, query and fragment left out.
    static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return "(unparseable URL)" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? "(unparseable URL)"
    }
}
