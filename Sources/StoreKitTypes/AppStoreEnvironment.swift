/// StoreKit's `AppStore` namespace: the environment and platform values that signed data
/// carries. The client library adds the calls (`sync()`, `requestReview`, …).
public enum AppStore {
    /// `AppStore.Environment`: which App Store signed the data.
    public struct Environment: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The string signed payloads carry ("Production", "Sandbox", "Xcode").
        public let rawValue: String
        /// Wraps any environment string, so a value this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `AppStore.Environment.production`: data signed by the live App Store.
        public static let production = Environment(rawValue: "Production")
        /// Mirrors StoreKit's `AppStore.Environment.sandbox`: data from test accounts, outside Production.
        public static let sandbox = Environment(rawValue: "Sandbox")
        /// Mirrors StoreKit's `AppStore.Environment.xcode`: data signed by StoreKit Testing in Xcode.
        public static let xcode = Environment(rawValue: "Xcode")
        /// The raw string, so logs print "Sandbox" rather than the struct.
        public var description: String { rawValue }
    }

    /// `AppStore.Platform`: where the app was first bought (`AppTransaction.originalPlatform`).
    public struct Platform: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The platform name as the app transaction payload's `originalPlatform` spells it.
        public let rawValue: String
        /// Wraps any platform string, so a platform this library does not list still decodes.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Mirrors StoreKit's `AppStore.Platform.iOS`: first bought on iPhone or iPad.
        public static let iOS = Platform(rawValue: "iOS")
        /// Mirrors StoreKit's `AppStore.Platform.macOS`: first bought on a Mac.
        public static let macOS = Platform(rawValue: "macOS")
        /// Mirrors StoreKit's `AppStore.Platform.tvOS`: first bought on Apple TV.
        public static let tvOS = Platform(rawValue: "tvOS")
        /// Mirrors StoreKit's `AppStore.Platform.visionOS`: first bought on Apple Vision Pro.
        public static let visionOS = Platform(rawValue: "visionOS")
        /// The raw string, so logs print "iOS" rather than the struct.
        public var description: String { rawValue }
    }
}
