import Foundation

/// Refund Control, as RevenueCat names it: how the backend answers the App Store's
/// CONSUMPTION_REQUEST, Apple's request for consumption data when a customer asks for a refund.
/// Apple waits up to 12 hours for Send Consumption Information; the answer, with the developer's
/// preferred outcome, is one of the facts the App Store weighs before it decides.
public struct RefundControlConfiguration: Codable, Sendable, Equatable {
    /// The preferred outcome sent to Apple (RevenueCat's four choices).
    public enum Policy: String, Codable, Sendable, CaseIterable {
        /// Requests are recorded and reported, never answered.
        case off
        /// `refundPreference` `GRANT_FULL`.
        case preferRefund
        /// `refundPreference` `DECLINE`.
        case preferDecline
        /// The consumption data without a `refundPreference`.
        case dataOnly
    }

    /// Whose requests may be answered. Apple: send `customerConsented` true "if the customer
    /// provided consent … If not, don't respond to the CONSUMPTION_REQUEST notification."
    public enum Consent: String, Codable, Sendable, CaseIterable {
        /// Only customers whose consent the app recorded (`PUT /v1/customers/{id}/consumption-consent`).
        case recorded
        /// Every customer: the app's terms obtain the consent from all of them.
        case all
    }

    /// Default `off`: a backend answers Apple only when the developer chose an outcome.
    public var policy: Policy
    /// Default `recorded`.
    public var consent: Consent
    /// Apple's `sampleContentProvided`: whether the app lets customers try the content first (a
    /// free trial, a sample). Default false.
    public var sampleContentProvided: Bool

    /// Off, consent as recorded, no sample content.
    public init(policy: Policy = .off, consent: Consent = .recorded, sampleContentProvided: Bool = false) {
        self.policy = policy
        self.consent = consent
        self.sampleContentProvided = sampleContentProvided
    }

    enum CodingKeys: String, CodingKey { case policy, consent, sampleContentProvided }

    /// Missing keys take their defaults; an unknown policy or consent is an error at its JSON path.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        policy = try c.decodeIfPresent(Policy.self, forKey: .policy) ?? .off
        consent = try c.decodeIfPresent(Consent.self, forKey: .consent) ?? .recorded
        sampleContentProvided = try c.decodeIfPresent(Bool.self, forKey: .sampleContentProvided) ?? false
    }
}

/// The rules of an answer: what is sent to Apple for a request, and whether one is sent at all.
/// Pure: the responder (`RefundResponder`) brings the facts and does the I/O.
enum RefundControlRules {
    /// The App Store waits 12 hours for the answer (as #34 and RevenueCat's "Handling Refund
    /// Requests" put it): counted from the notification's `signedDate`, no attempt starts later.
    static let answerWindowMs: Int64 = 12 * 3_600_000

    /// Apple's `ConsumptionRequest` (Send Consumption Information, v2). `consumptionPercentage`
    /// is never sent: the backend does not know how much of a purchase was used, and Apple
    /// computes it itself for auto-renewable subscriptions (where sending it is an error).
    struct Body: Codable, Sendable, Equatable {
        var customerConsented: Bool
        var sampleContentProvided: Bool
        /// `DELIVERED`: the backend granted the entitlement when it verified the purchase.
        var deliveryStatus: String
        /// `GRANT_FULL`, `DECLINE`, or absent for data only.
        var refundPreference: String?

        func json() -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (try? encoder.encode(self)) ?? Data("{}".utf8)
        }
    }

    /// What becomes of a pending request now.
    enum Decision: Equatable {
        /// Send this body.
        case send(Body)
        /// Leave it unanswered for good, in this state, for this reason.
        case close(state: String, reason: String)
    }

    /// The decision for a request of an app with `control`, due by `deadlineMs`.
    static func decide(_ control: RefundControlConfiguration, consented: Bool, hasAPIKey: Bool, nowMs: Int64, deadlineMs: Int64) -> Decision {
        if control.policy == .off { return .close(state: RefundRequestState.off, reason: "refund control is off for this app") }
        if nowMs > deadlineMs { return .close(state: RefundRequestState.expired, reason: "Apple's 12 hours to answer have passed") }
        if !consented {
            return .close(state: RefundRequestState.noConsent,
                          reason: "the customer's consent is not recorded (Apple: without consent, don't respond)")
        }
        if !hasAPIKey { return .close(state: RefundRequestState.failed, reason: "the app has no Server API key (apiKey) to answer with") }
        return .send(Body(customerConsented: true, sampleContentProvided: control.sampleContentProvided,
                          deliveryStatus: "DELIVERED", refundPreference: preference(control.policy)))
    }

    /// The `refundPreference` a policy sends.
    static func preference(_ policy: RefundControlConfiguration.Policy) -> String? {
        switch policy {
        case .preferRefund: "GRANT_FULL"
        case .preferDecline: "DECLINE"
        case .dataOnly, .off: nil
        }
    }

    /// When a failed attempt is tried again: doubling from 30 s, at most an hour apart, never
    /// after the deadline; nil when no attempt fits before it.
    static func nextAttempt(afterAttempt attempt: Int, nowMs: Int64, deadlineMs: Int64) -> Int64? {
        let delay = min(30_000 * (Int64(1) << Int64(min(attempt - 1, 10))), 3_600_000)
        let next = nowMs + delay
        return next < deadlineMs ? next : nil
    }
}

/// The states of a refund request the backend recorded (`bk_refund_requests.state`).
enum RefundRequestState {
    /// Waiting for its answer (or its next attempt).
    static let pending = "pending"
    /// Send Consumption Information was accepted (202).
    static let answered = "answered"
    /// The app's policy is off: recorded, not answered.
    static let off = "off"
    /// No recorded consent: not answered, as Apple asks.
    static let noConsent = "noConsent"
    /// Apple refused the answer, or no attempt succeeded before the deadline.
    static let failed = "failed"
    /// The deadline passed before the backend could try (it was down).
    static let expired = "expired"
}
