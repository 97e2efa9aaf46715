import Foundation

/// `appPolicies`: the EULA and privacy-policy texts and links that subscription store views show.
public struct AppPolicies: Sendable, Equatable {
    /// The custom EULA text; empty means Apple's standard EULA.
    public var eula: String
    /// `policies[]`: the localized privacy policies; pick one for a customer with `privacyPolicy(for:linkedOnly:)`.
    public var policies: [Policy]

    /// One localized policy (`policyText`, `policyURL`).
    public struct Policy: Sendable, Equatable {
        /// `locale`: which language and region the policy is written for ("en_US").
        public var locale: String
        /// `policyText`: the policy itself, for views that show text rather than a link; may be empty.
        public var text: String
        /// `policyURL`: where the policy lives; may be empty.
        public var url: String

        /// A policy as the file gives it; empty strings stand for missing fields.
        public init(locale: String, text: String, url: String) {
            self.locale = locale
            self.text = text
            self.url = url
        }
    }

    /// Policies as a catalog gives them; the defaults mean Apple's standard EULA and no privacy policy.
    public init(eula: String = "", policies: [Policy] = []) {
        self.eula = eula
        self.policies = policies
    }
}

extension AppPolicies {
    /// Apple's standard EULA, which applies when the catalog has no EULA text of its own.
    public static let standardEULA = "https://www.apple.com/legal/internet-services/itunes/dev/stdeula/"

    /// The custom EULA text; nil when it is blank (Apple's standard EULA applies).
    public var customEULA: String? {
        eula.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : eula
    }

    /// The privacy policy to show for `locale`: the exact locale, then the same language, then the
    /// first one. Only policies with a link count when `linkedOnly` (a static page can't show text).
    public func privacyPolicy(for locale: String, linkedOnly: Bool = false) -> Policy? {
        let candidates = policies.filter { !$0.url.isEmpty || (!linkedOnly && !$0.text.isEmpty) }
        let normalized = locale.replacingOccurrences(of: "-", with: "_").lowercased()
        let language = normalized.split(separator: "_").first.map(String.init) ?? normalized
        return candidates.first { $0.locale.replacingOccurrences(of: "-", with: "_").lowercased() == normalized }
            ?? candidates.first { $0.locale.lowercased().hasPrefix(language) }
            ?? candidates.first
    }
}
