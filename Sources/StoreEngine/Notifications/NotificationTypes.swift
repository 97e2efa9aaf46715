/// Apple's `notificationType` → `subtype` pairs (reference §4.5), for validating Notification
/// History filters. An empty set means the type has no subtype.
public enum NotificationTypes {
    public static let subtypes: [String: Set<String>] = [
        "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"],
        "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE"],
        "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
        "OFFER_REDEEMED": ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE"],
        "DID_RENEW": ["BILLING_RECOVERY"],
        "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE"],
        "DID_FAIL_TO_RENEW": ["GRACE_PERIOD"],
        "PRICE_INCREASE": ["PENDING", "ACCEPTED"],
        "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"],
        "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED"],
        "GRACE_PERIOD_EXPIRED": [], "REFUND": [], "REFUND_DECLINED": [], "REFUND_REVERSED": [],
        "CONSUMPTION_REQUEST": [], "RENEWAL_EXTENDED": [], "REVOKE": [], "TEST": [], "ONE_TIME_CHARGE": [],
        "RESCIND_CONSENT": [], "METADATA_UPDATE": [], "MIGRATION": [], "PRICE_CHANGE": [],
    ]

    /// Whether a History filter names a real type, and a subtype that type has.
    public static func isValid(type: String, subtype: String?) -> Bool {
        guard let allowed = subtypes[type] else { return false }
        guard let subtype else { return true }
        return allowed.contains(subtype)
    }

    /// `ConsumptionRequestReason` values a refund request may give.
    public static let consumptionRequestReasons: Set<String> = [
        "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
    ]
}
