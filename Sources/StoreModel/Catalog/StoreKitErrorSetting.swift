/// One `_storeKitErrors` entry: a simulated error for one StoreKit API (Xcode 15+), e.g.
/// `Load Products` or `Purchase`.
public struct StoreKitErrorSetting: Sendable, Equatable {
    /// The API name as Xcode writes it (`Load Products`, `Purchase`, `Verification`, …).
    public var name: String
    /// Whether the simulated error is on; only an enabled setting makes a world fail that API.
    public var enabled: Bool
    /// The chosen error, remembered even while disabled; nil when the file has `null`.
    public var current: Current?

    /// The error chosen for the API: which case of which error family.
    public struct Current: Sendable, Equatable {
        /// Position of the case in the wrapped error enum.
        public var index: Int
        /// The failure family: `generic`, `purchase`, `verification`, `refundRequest`.
        public var type: String

        /// A choice as the file's `current` object gives it.
        public init(index: Int, type: String) {
            self.index = index
            self.type = type
        }
    }

    /// A setting as the file gives it; off and with no error chosen by default.
    public init(name: String, enabled: Bool = false, current: Current? = nil) {
        self.name = name
        self.enabled = enabled
        self.current = current
    }

    /// The nine API names Xcode 15+ writes, in its order.
    public static let apiNames = [
        "Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status",
        "App Transaction", "Manage Subscriptions Sheet", "Refund Request Sheet", "Offer Code Redeem Sheet",
    ]
}
