import Foundation
import StoreKitTypes
import StoreModel

/// The words and derived prices a store page shows next to a subscription's billed amount.
/// English labels; product texts and currency formats come from the catalog and storefront.
public enum PriceText {
    /// "month", "2 months", "year".
    public static func period(_ period: Product.SubscriptionPeriod) -> String {
        period.value == 1 ? period.unit.rawValue : "\(period.value) \(period.unit.rawValue)s"
    }

    /// "1 week", "3 months": a length of time, always with its count.
    public static func duration(_ period: Product.SubscriptionPeriod) -> String {
        "\(period.value) \(period.unit.rawValue)\(period.value == 1 ? "" : "s")"
    }

    /// "/mo", "/yr", "/2 mo" — the compact visual form (hidden from screen readers).
    public static func shortPeriod(_ period: Product.SubscriptionPeriod) -> String {
        let unit = switch period.unit { case .day: "day"; case .week: "wk"; case .month: "mo"; case .year: "yr" }
        return period.value == 1 ? "/\(unit)" : "/\(period.value) \(unit)"
    }

    /// "$4.99 per month": the speakable billed amount.
    public static func spoken(_ product: Product) -> String {
        guard let info = product.subscription else { return product.displayPrice }
        return "\(product.displayPrice) per \(period(info.subscriptionPeriod))"
    }

    /// The price per month of a plan billed less often than monthly ("$4.17" for $49.99 a year),
    /// nil when the plan is monthly or shorter, or when the equivalent would round to zero.
    public static func monthlyEquivalent(_ product: Product) -> String? {
        guard let period = product.subscription?.subscriptionPeriod else { return nil }
        let months: Int
        switch period.unit {
        case .year: months = 12 * period.value
        case .month where period.value > 1: months = period.value
        default: return nil
        }
        let perMonth = product.price / Decimal(months)
        let text = PriceFormatter.format(perMonth, currency: product.currencyCode, locale: product.priceLocaleIdentifier)
        guard perMonth > 0, text.contains(where: { ("1"..."9").contains($0) }) else { return nil }
        return text
    }

    /// What a plan saves over paying a shorter plan for the same time: a yearly plan against the
    /// monthly one, as the talk's store shows. `percent` is rounded down, so "Save 16%" never
    /// overstates; `displayAmount` is in the storefront's currency format.
    public struct Savings: Sendable, Hashable {
        /// How much less the plan costs over the same time, in the product's currency.
        public let amount: Decimal
        /// The saving as a percentage of paying the shorter plan for that time, rounded down ("Save 16%").
        public let percent: Int
        /// `amount` formatted for the storefront, ready to show.
        public let displayAmount: String
    }

    /// The savings of `product` over buying `reference` repeatedly for the same length of time, or
    /// nil when the periods don't divide (a week against a month), the product is not the longer
    /// one, or it saves nothing.
    public static func savings(_ product: Product, over reference: Product) -> Savings? {
        guard let long = product.subscription?.subscriptionPeriod, let short = reference.subscription?.subscriptionPeriod,
              let longDays = days(long), let shortDays = days(short), shortDays > 0,
              longDays > shortDays, longDays % shortDays == 0 else { return nil }
        let cost = reference.price * Decimal(longDays / shortDays)
        let amount = cost - product.price
        guard cost > 0, amount > 0 else { return nil }
        var ratio = amount / cost * 100, percent = Decimal()
        NSDecimalRound(&percent, &ratio, 0, .down)
        return Savings(amount: amount, percent: NSDecimalNumber(decimal: percent).intValue,
                       displayAmount: PriceFormatter.format(amount, currency: product.currencyCode, locale: product.priceLocaleIdentifier))
    }

    /// A period's length in days for comparing plans: months count 30 and years 360, so a year is
    /// exactly twelve months (prices compare per billed period, not per calendar day).
    private static func days(_ period: Product.SubscriptionPeriod) -> Int? {
        switch period.unit {
        case .day: period.value
        case .week: 7 * period.value
        case .month: 30 * period.value
        case .year: 360 * period.value
        }
    }

    /// "1 week free", "$0.99 per month for 3 months", "$1.99 for 3 months".
    public static func offer(_ offer: Product.SubscriptionOffer) -> String {
        let total = Product.SubscriptionPeriod(value: offer.period.value * max(offer.periodCount, 1), unit: offer.period.unit)
        switch offer.paymentMode {
        case .freeTrial: return "\(duration(total)) free"
        case .payUpFront: return "\(offer.displayPrice) for \(duration(total))"
        default:
            return "\(offer.displayPrice) per \(period(offer.period)) for \(duration(total))"
        }
    }

    /// The intro offer the customer would get now, if any: StoreKit applies it automatically.
    static func eligibleIntroOffer(_ product: Product, store: StoreSnapshot) -> Product.SubscriptionOffer? {
        guard let info = product.subscription, let offer = info.introductoryOffer,
              store.isEligibleForIntroOffer(group: info.subscriptionGroupID) else { return nil }
        return offer
    }
}
