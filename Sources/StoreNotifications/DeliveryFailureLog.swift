import Foundation
import Logging
import StoreEngine

extension NotificationDeliveryService {
    /// Logs a failed send attempt once, with what it was about (world, app, customer,
    /// transaction, notification) and where it went: the URL without credentials or query,
    /// which may hold a receiver's secret.
    func logFailedAttempt(_ notification: DueNotification, result: SendAttemptResult, error: String? = nil) {
        var metadata: Logger.Metadata = [
            "world": .string(notification.world), "app": .string(notification.bundleId), "customer": .string(notification.customer),
            "notification_uuid": .string(notification.notificationUUID),
            "notification_type": .string([notification.notificationType, notification.subtype].compactMap { $0 }.joined(separator: "/")),
            "send_attempt_result": .string(result.rawValue), "attempt": .stringConvertible(notification.attempt),
        ]
        if let transaction = notification.transactionId { metadata["transaction"] = .string(String(transaction)) }
        metadata["url"] = .string(notification.url.map(NotificationURLText.redacted) ?? "none")
        if let error { metadata["error"] = .string(error) }
        logger.warning("notification delivery failed", metadata: metadata)
    }
}
