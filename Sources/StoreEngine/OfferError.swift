/// Why the store refused an offer. The codes are StoreKit's `Product.PurchaseError` names where
/// StoreKit has one (`invalidOfferSignature`, `invalidOfferIdentifier`, `missingOfferParameters`,
/// `ineligibleForOffer`); offer codes, which StoreKit redeems in a system sheet with no public
/// error names, get names of our own.
public enum OfferError: Error, Sendable, Equatable {
    /// A bad, stale or replayed signature, or a key the app never registered.
    case invalidOfferSignature(String)
    /// No such offer for the product.
    case invalidOfferIdentifier(String)
    /// The request lacks fields the offer kind needs.
    case missingOfferParameters(String)
    /// The customer may not redeem this offer (Apple's eligibility rules).
    case ineligibleForOffer(String)
    /// No such offer code for the app.
    case invalidOfferCode(String)
    /// The code's expiry date has passed.
    case offerCodeExpired(String)
    /// The code was redeemed as many times as it allows.
    case offerCodeRedemptionLimitReached(String)

    /// The case's name, as the device API's error answer names it (the StoreKit error to throw).
    public var code: String {
        switch self {
        case .invalidOfferSignature: "invalidOfferSignature"
        case .invalidOfferIdentifier: "invalidOfferIdentifier"
        case .missingOfferParameters: "missingOfferParameters"
        case .ineligibleForOffer: "ineligibleForOffer"
        case .invalidOfferCode: "invalidOfferCode"
        case .offerCodeExpired: "offerCodeExpired"
        case .offerCodeRedemptionLimitReached: "offerCodeRedemptionLimitReached"
        }
    }

    /// What was wrong, for a person reading the answer.
    public var message: String {
        switch self {
        case .invalidOfferSignature(let m), .invalidOfferIdentifier(let m), .missingOfferParameters(let m),
             .ineligibleForOffer(let m), .invalidOfferCode(let m), .offerCodeExpired(let m),
             .offerCodeRedemptionLimitReached(let m):
            m
        }
    }
}
