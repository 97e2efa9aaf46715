/// When `AppStore.requestReview(in:)` really shows the rating prompt. Apple: "the system
/// automatically limits the display of the prompt to three occurrences per app within a 365-day
/// period", and asks apps not to prompt twice for the same version. Apple shows the prompt every
/// time to an app run from Xcode and never under TestFlight; we apply the App Store's limits in
/// every environment so tests can exercise them. The window is 365 days of the world's clock.
public enum ReviewPromptPolicy {
    /// Apple's limit: at most three prompts per app within `windowMs`.
    public static let maximumPrompts = 3
    /// The 365-day window the limit counts over, on the world's clock.
    public static let windowMs: Int64 = 365 * 86_400_000

    /// A prompt the customer was shown.
    public struct Prompt: Codable, Sendable, Equatable {
        /// When it was shown, on the world's clock.
        public var atMs: Int64
        /// The app version it was shown for.
        public var appVersion: String
        /// A prompt shown at `atMs` for `appVersion`.
        public init(atMs: Int64, appVersion: String) {
            self.atMs = atMs
            self.appVersion = appVersion
        }
    }

    /// Why the prompt did not show: three prompts within 365 days, or one already shown for this version.
    public enum Refusal: String, Codable, Sendable {
        case limitReached, alreadyShownForVersion
    }

    /// Nil when the prompt shows. The version rule is checked first: it never lapses, while the
    /// yearly limit does, so it is the more useful answer when both apply.
    public static func refusal(shown: [Prompt], appVersion: String, nowMs: Int64) -> Refusal? {
        if shown.contains(where: { $0.appVersion == appVersion }) { return .alreadyShownForVersion }
        let recent = shown.filter { $0.atMs > nowMs - windowMs && $0.atMs <= nowMs }
        if recent.count >= maximumPrompts { return .limitReached }
        return nil
    }
}
