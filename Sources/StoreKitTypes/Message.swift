/// StoreKit's `Message`: something the App Store wants to show over the app (a price increase
/// to consent to, a billing issue, a win-back offer). The client library adds `messages` and
/// `display()`.
public struct Message: Identifiable, Hashable, Sendable {
    /// `Message.Reason`
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let generic = Reason(rawValue: "generic")
        public static let priceIncreaseConsent = Reason(rawValue: "priceIncreaseConsent")
        public static let billingIssue = Reason(rawValue: "billingIssue")
        public static let winBackOffer = Reason(rawValue: "winBackOffer")
        public var description: String { rawValue }
    }

    /// The store's identifier for the message (not in StoreKit, which hides it).
    public let id: String
    public let reason: Reason

    public init(id: String, reason: Reason) {
        self.id = id
        self.reason = reason
    }
}
