/// How an offer is paid, with raw values as `.storekit` files spell `paymentMode`.
public enum PaymentMode: String, Sendable, CaseIterable {
    /// Nothing to pay for the offer's periods.
    case freeTrial = "free"
    /// `displayPrice` every period, for `numberOfPeriods` periods.
    case payAsYouGo
    /// `displayPrice` once, for the whole offer duration.
    case payUpFront

    /// The wire `offerDiscountType` of transactions bought with this mode.
    public var discountType: OfferDiscountType {
        switch self {
        case .freeTrial: return .freeTrial
        case .payAsYouGo: return .payAsYouGo
        case .payUpFront: return .payUpFront
        }
    }
}
