import StoreModel

/// Notification History's filter rules, from Apple's types (`NotificationType` and its `subtypes`).
public enum NotificationTypes {
    /// Whether a History filter names a real type, and a subtype that type has.
    public static func isValid(type: String, subtype: String?) -> Bool {
        guard let known = NotificationType(rawValue: type) else { return false }
        guard let subtype else { return true }
        return NotificationSubtype(rawValue: subtype).map(known.subtypes.contains) ?? false
    }

    /// `ConsumptionRequestReason` values a refund request may give.
    public static let consumptionRequestReasons: Set<String> = [
        "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
    ]
}
