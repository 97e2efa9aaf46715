import Foundation
import StoreModel

/// Where a subscription store's policy links lead, from the catalog's `appPolicies`: a custom
/// EULA is served by the store itself, else Apple's standard EULA; the privacy policy is the
/// link for the customer's locale, or the store's page of its text when only text is given.
enum AppPolicyLinks {
    /// The terms link: `customTermsURL` (the store's page of the catalog's EULA) or Apple's.
    static func termsURL(_ catalog: Catalog, customTermsURL: String) -> String {
        catalog.appPolicies?.customEULA == nil ? AppPolicies.standardEULA : customTermsURL
    }

    /// Whether a catalog's link can be followed as is: an `http(s)://` address.
    static func isWebAddress(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The privacy link, nil when the catalog has no policy; the store's page of the text when
    /// the catalog's URL is missing or isn't a web address.
    static func privacyURL(_ catalog: Catalog, locale: String, textURL: String) -> String? {
        guard let policy = catalog.appPolicies?.privacyPolicy(for: locale) else { return nil }
        return isWebAddress(policy.url) ? policy.url : textURL
    }
}
