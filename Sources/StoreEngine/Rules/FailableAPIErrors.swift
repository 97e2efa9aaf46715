/// The errors StoreKit Testing lets each failable API fail with (`SKTestFailures`, iOS 17+): every
/// API takes `StoreKitError`'s cases (`generic`); Purchase also takes `Product.PurchaseError`'s and
/// Refund Request Sheet `Transaction.RefundRequestError`'s; Verification takes only
/// `VerificationResult.VerificationError`'s (../shared/reference/storekit-config-and-testing.md §1.6).
public enum FailableAPIErrors {
    /// Each API's `SKTestFailures` families, named as `CatalogSimulatedErrors.cases` names them.
    static let families: [String: [String]] = [
        "Load Products": ["generic"], "Purchase": ["generic", "purchase"], "Verification": ["verification"],
        "App Store Sync": ["generic"], "Subscription Status": ["generic"], "App Transaction": ["generic"],
        "Manage Subscriptions Sheet": ["generic"], "Refund Request Sheet": ["generic", "refundRequest"],
        "Offer Code Redeem Sheet": ["generic"],
    ]

    /// The error names `api` can be set to fail with, in declaration order; empty for an unknown API.
    public static func errors(for api: String) -> [String] {
        (families[api] ?? []).flatMap { CatalogSimulatedErrors.cases[$0] ?? [] }
    }
}
