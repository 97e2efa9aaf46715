import StoreKit

/// How a paywall describes a subscription: the period, the price per unit, the introductory
/// offer and the renewal state, in the storefront's words, with StoreKit's format styles. Uses
/// only what `import StoreKit` brings (Foundation's `Date`, `Locale`, `DateFormatter`, …).
public enum SubscriptionText {
    /// "1 month", "1 year".
    public static func period(of product: Product) -> String? {
        guard let subscription = product.subscription else { return nil }
        return subscription.subscriptionPeriod.formatted(product.subscriptionPeriodFormatStyle)
    }

    /// "$4.99 / month".
    public static func pricePerUnit(of product: Product) -> String? {
        guard let unit = product.subscription?.subscriptionPeriod.unit else { return nil }
        return "\(product.displayPrice) / \(unit.formatted(product.subscriptionPeriodUnitFormatStyle))"
    }

    /// "Month", as a settings row shows the billing unit.
    public static func unitName(of product: Product) -> String? {
        product.subscription?.subscriptionPeriod.unit.localizedDescription
    }

    /// "1 week free", "3 × 1 month at $2.49", "3 months for $8.99".
    public static func introductoryOffer(of product: Product) -> String? {
        guard let offer = product.subscription?.introductoryOffer else { return nil }
        let period = offer.period.formatted(product.subscriptionPeriodFormatStyle)
        switch offer.paymentMode {
        case .freeTrial: return "\(period) free"
        case .payAsYouGo: return "\(offer.periodCount) × \(period) at \(offer.displayPrice)"
        case .payUpFront: return "\(period) for \(offer.displayPrice)"
        default: return nil
        }
    }

    /// "Subscribed — renews on Mar 3, 2027", "Expired".
    public static func state(of status: Product.SubscriptionInfo.Status) -> String {
        var text = status.state.localizedDescription
        if status.state == .subscribed, case .verified(let renewal) = status.renewalInfo, renewal.willAutoRenew,
           case .verified(let transaction) = status.transaction, let expiration = transaction.expirationDate {
            let formatter = DateFormatter()
            formatter.dateStyle = .medium
            formatter.timeStyle = .none
            formatter.locale = Locale(identifier: "en_US")
            text += " — renews on \(formatter.string(from: expiration))"
        }
        return text
    }
}
