/// StoreKit's `Message`: something the App Store wants to show over the app (a price increase
/// to consent to, a billing issue, a win-back offer). The client library adds `messages` and
/// `display()`.
public struct Message: Identifiable, Hashable, Sendable {
    /// `Message.Reason`
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The reason's name, as StoreKit spells the case ("priceIncreaseConsent").
        public let rawValue: String
        /// Wraps any reason string, so one this library does not list still comes through.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `Message.Reason.generic`: a message with no more specific reason.
        public static let generic = Reason(rawValue: "generic")
        /// Mirrors StoreKit's `Message.Reason.priceIncreaseConsent`: the customer must agree to a
        /// subscription price increase or the subscription will not renew at the new price.
        public static let priceIncreaseConsent = Reason(rawValue: "priceIncreaseConsent")
        /// Mirrors StoreKit's `Message.Reason.billingIssue`: the customer's payment method failed to renew a subscription.
        public static let billingIssue = Reason(rawValue: "billingIssue")
        /// Mirrors StoreKit's `Message.Reason.winBackOffer`: a win-back offer for a lapsed subscriber.
        public static let winBackOffer = Reason(rawValue: "winBackOffer")
        /// The raw string, so logs print the reason's name.
        public var description: String { rawValue }
    }

    /// The store's identifier for the message (not in StoreKit, which hides it).
    public let id: String
    /// Mirrors StoreKit's `Message.reason`: why the App Store wants to show the message.
    public let reason: Reason

    /// A message with the store's identifier, as the client library builds it from the store's answer.
    public init(id: String, reason: Reason) {
        self.id = id
        self.reason = reason
    }
}
