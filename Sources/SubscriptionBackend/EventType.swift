/// What happened to a customer, as the backend's webhooks name it (RevenueCat's vocabulary,
/// plus the trial and billing-recovery steps a subscription app acts on).
public enum EventType: String, Codable, Sendable, CaseIterable {
    case initialPurchase = "INITIAL_PURCHASE"
    case renewal = "RENEWAL"
    case trialStarted = "TRIAL_STARTED"
    case trialConverted = "TRIAL_CONVERTED"
    case cancellation = "CANCELLATION"
    case uncancellation = "UNCANCELLATION"
    case nonRenewingPurchase = "NON_RENEWING_PURCHASE"
    case billingIssue = "BILLING_ISSUE"
    case billingRecovered = "BILLING_RECOVERED"
    case productChange = "PRODUCT_CHANGE"
    case expiration = "EXPIRATION"
    case refund = "REFUND"
    case refundReversed = "REFUND_REVERSED"
    case revoke = "REVOKE"
    /// A customer asked Apple for a refund (CONSUMPTION_REQUEST); refund control may answer it.
    case refundRequested = "REFUND_REQUESTED"
    /// Apple accepted the backend's Send Consumption Information for a refund request.
    case consumptionRequestAnswered = "CONSUMPTION_REQUEST_ANSWERED"
    /// The current period's end was pushed back (a renewal-date extension through the Server API).
    case subscriptionExtended = "SUBSCRIPTION_EXTENDED"
    /// A price increase that needs the subscriber's consent was announced (`PENDING`), or consented
    /// to (`ACCEPTED`): Apple's PRICE_INCREASE notification.
    case priceIncrease = "PRICE_INCREASE"
    /// A purchase moved from one identified customer to another (the app posted it for a second
    /// customer under the `transfer` policy): RevenueCat's TRANSFER.
    case transfer = "TRANSFER"
    /// Sent on demand (`POST /v1/admin/webhooks/test`, the dashboard) to check a receiver.
    case test = "TEST"
}
