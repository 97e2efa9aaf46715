/// Which list of a subscription an offer came from, which decides who may redeem it and how.
public enum OfferKind: String, Sendable, CaseIterable {
    /// `introductoryOffer` / `introductoryOffers[]`: once per customer per group.
    case introductory
    /// `adHocOffers[]`: needs a signed promotional-offer request.
    case promotional
    /// `codeOffers[]`: redeemed with an offer code.
    case code
    /// `winbackOffers[]`: for lapsed subscribers.
    case winBack

    /// The wire `offerType` of transactions bought with this kind of offer.
    public var offerType: OfferType {
        switch self {
        case .introductory: return .introductory
        case .promotional: return .promotional
        case .code: return .offerCode
        case .winBack: return .winBack
        }
    }
}
