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
}
