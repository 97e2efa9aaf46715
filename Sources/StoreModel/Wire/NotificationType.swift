/// Apple's `notificationType` values (App Store Server Notifications V2, reference §4.5): the
/// engine emits these and validates Notification History filters with them; the wire and the
/// database carry the raw value.
public enum NotificationType: String, Sendable, Hashable, CaseIterable, Codable {
    case subscribed = "SUBSCRIBED"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case offerRedeemed = "OFFER_REDEEMED"
    case didRenew = "DID_RENEW"
    case expired = "EXPIRED"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case priceIncrease = "PRICE_INCREASE"
    case refund = "REFUND"
    case refundDeclined = "REFUND_DECLINED"
    case refundReversed = "REFUND_REVERSED"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case renewalExtended = "RENEWAL_EXTENDED"
    case renewalExtension = "RENEWAL_EXTENSION"
    case revoke = "REVOKE"
    case test = "TEST"
    case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case rescindConsent = "RESCIND_CONSENT"
    case metadataUpdate = "METADATA_UPDATE"
    case migration = "MIGRATION"
    case priceChange = "PRICE_CHANGE"

    /// The subtypes Apple pairs with this type; empty when the type has none.
    public var subtypes: Set<NotificationSubtype> {
        switch self {
        case .subscribed: [.initialBuy, .resubscribe]
        case .didChangeRenewalPref: [.upgrade, .downgrade]
        case .didChangeRenewalStatus: [.autoRenewEnabled, .autoRenewDisabled]
        case .offerRedeemed: [.initialBuy, .resubscribe, .upgrade, .downgrade]
        case .didRenew: [.billingRecovery]
        case .expired: [.voluntary, .billingRetry, .priceIncrease, .productNotForSale]
        case .didFailToRenew: [.gracePeriod]
        case .priceIncrease: [.pending, .accepted]
        case .renewalExtension: [.summary, .failure]
        case .externalPurchaseToken: [.unreported]
        default: []
        }
    }
}

/// Apple's notification `subtype` values; which go with which type is `NotificationType.subtypes`.
public enum NotificationSubtype: String, Sendable, Hashable, CaseIterable, Codable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case upgrade = "UPGRADE"
    case downgrade = "DOWNGRADE"
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    case billingRecovery = "BILLING_RECOVERY"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case priceIncrease = "PRICE_INCREASE"
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    case gracePeriod = "GRACE_PERIOD"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case summary = "SUMMARY"
    case failure = "FAILURE"
    case unreported = "UNREPORTED"
}
