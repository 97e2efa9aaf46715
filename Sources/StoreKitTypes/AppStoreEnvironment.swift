/// StoreKit's `AppStore` namespace: the environment and platform values that signed data
/// carries. The client library adds the calls (`sync()`, `requestReview`, …).
public enum AppStore {
    /// `AppStore.Environment`: which App Store signed the data.
    public struct Environment: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let production = Environment(rawValue: "Production")
        public static let sandbox = Environment(rawValue: "Sandbox")
        public static let xcode = Environment(rawValue: "Xcode")
        public var description: String { rawValue }
    }

    /// `AppStore.Platform`: where the app was first bought (`AppTransaction.originalPlatform`).
    public struct Platform: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let iOS = Platform(rawValue: "iOS")
        public static let macOS = Platform(rawValue: "macOS")
        public static let tvOS = Platform(rawValue: "tvOS")
        public static let visionOS = Platform(rawValue: "visionOS")
        public var description: String { rawValue }
    }
}
