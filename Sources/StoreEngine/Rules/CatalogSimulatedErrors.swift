import StoreModel

/// `_storeKitErrors[].current` in a `.storekit` file: the simulated errors a world starts with, as
/// Xcode sets them on its test session when it opens the file (issue 16 item 13). Only `enabled`
/// entries count; a disabled one only remembers its choice.
///
/// `current` is `{ "index": Int, "type": String }`. Apple does not document it; we read `type` as
/// the `SKTestFailures` family (`generic` → `StoreKitError`, `purchase` → `Product.PurchaseError`,
/// `verification` → `VerificationResult.VerificationError`, `refundRequest` →
/// `Transaction.RefundRequestError`) and `index` as the case's position in that enum's declaration
/// (../shared/reference/storekit-config-and-testing.md §1.6, marked inferred there). An entry whose
/// type or index we cannot map sets nothing rather than a guess.
public enum CatalogSimulatedErrors {
    /// Each family's cases in declaration order, named as the Transaction Manager names errors.
    public static let cases: [String: [String]] = [
        "generic": ["unknown", "userCancelled", "networkError", "systemError", "notAvailableInStorefront", "notEntitled", "unsupported"],
        "purchase": ["invalidQuantity", "productUnavailable", "purchaseNotAllowed", "ineligibleForOffer", "invalidOfferIdentifier",
                     "invalidOfferPrice", "invalidOfferSignature", "missingOfferParameters"],
        "verification": ["revokedCertificate", "invalidCertificateChain", "invalidDeviceVerification", "invalidEncoding",
                         "invalidSignature", "missingRequiredProperties"],
        "refundRequest": ["duplicateRequest", "failed"],
    ]

    /// The error an entry sets, or nil (disabled, no choice, or a choice we cannot map).
    public static func error(of setting: StoreKitErrorSetting) -> String? {
        guard setting.enabled, let current = setting.current, let names = cases[current.type],
              names.indices.contains(current.index) else { return nil }
        return names[current.index]
    }

    /// API name → error for every app's catalog; where two apps disagree the first bundle ID wins.
    public static func defaults(for apps: [StoreApp]) -> [String: String] {
        var errors: [String: String] = [:]
        for app in apps.sorted(by: { $0.bundleId < $1.bundleId }) {
            for setting in app.catalog.settings.storeKitErrors where errors[setting.name] == nil {
                guard let api = AppStore.failableAPIs.first(where: { $0 == setting.name }), let error = error(of: setting),
                      FailableAPIErrors.errors(for: api).contains(error) else { continue }
                errors[api] = error
            }
        }
        return errors
    }
}
