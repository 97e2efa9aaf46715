import Foundation
import StoreModel

/// Where a subscription store's policy links lead, from the catalog's `appPolicies`: a custom
/// EULA is served by the store itself, else Apple's standard EULA; the privacy policy is the
/// link for the customer's locale, or the store's page of its text when only text is given.
enum AppPolicyLinks {
    static let standardEULA = "https://www.apple.com/legal/internet-services/itunes/dev/stdeula/"

    static func customEULA(_ catalog: Catalog) -> String? {
        guard let eula = catalog.appPolicies?.eula, !eula.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return eula
    }

    /// The terms link: `customTermsURL` (the store's page of the catalog's EULA) or Apple's.
    static func termsURL(_ catalog: Catalog, customTermsURL: String) -> String {
        customEULA(catalog) == nil ? standardEULA : customTermsURL
    }

    /// The policy for a locale: the exact locale, then the same language, then the first one.
    static func privacyPolicy(_ catalog: Catalog, locale: String) -> AppPolicies.Policy? {
        let policies = (catalog.appPolicies?.policies ?? []).filter { !$0.url.isEmpty || !$0.text.isEmpty }
        let normalized = locale.replacingOccurrences(of: "-", with: "_").lowercased()
        let language = normalized.split(separator: "_").first.map(String.init) ?? normalized
        return policies.first { $0.locale.replacingOccurrences(of: "-", with: "_").lowercased() == normalized }
            ?? policies.first { $0.locale.lowercased().hasPrefix(language) }
            ?? policies.first
    }

    /// Whether a catalog's link can be followed as is: an `http(s)://` address.
    static func isWebAddress(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The privacy link, nil when the catalog has no policy; the store's page of the text when
    /// the catalog's URL is missing or isn't a web address.
    static func privacyURL(_ catalog: Catalog, locale: String, textURL: String) -> String? {
        guard let policy = privacyPolicy(catalog, locale: locale) else { return nil }
        return isWebAddress(policy.url) ? policy.url : textURL
    }
}
