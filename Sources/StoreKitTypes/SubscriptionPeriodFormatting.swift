import Foundation

extension Product {
    /// `Product.subscriptionPeriodFormatStyle`: formats a subscription period ("1 month",
    /// "3 months") in the storefront's locale, as `period.formatted(product.subscriptionPeriodFormatStyle)`.
    /// StoreKit's is a `Date.ComponentsFormatStyle`; Linux Foundation declares that type but gives
    /// it no initializer and no formatting, so this style of the same shape (a `FormatStyle` over
    /// `Range<Date>` giving `String`) stands in for it.
    public var subscriptionPeriodFormatStyle: SubscriptionPeriodFormatStyle {
        SubscriptionPeriodFormatStyle(locale: Locale(identifier: priceLocaleIdentifier))
    }

    /// `Product.subscriptionPeriodUnitFormatStyle`: names a period's unit ("month") in the
    /// storefront's locale.
    public var subscriptionPeriodUnitFormatStyle: Product.SubscriptionPeriod.Unit.FormatStyle {
        Product.SubscriptionPeriod.Unit.FormatStyle(locale: Locale(identifier: priceLocaleIdentifier))
    }

    /// Formats the length of a date range in whole years, months, weeks and days, spelled out
    /// ("1 year", "2 months, 1 week"): what `subscriptionPeriodFormatStyle` does on a device.
    public struct SubscriptionPeriodFormatStyle: Foundation.FormatStyle, Sendable {
        /// The locale the words are chosen for; only its language matters.
        public var locale: Locale

        /// A style for `locale`; the product's `subscriptionPeriodFormatStyle` passes the storefront's.
        public init(locale: Locale = .current) {
            self.locale = locale
        }

        /// Spells out the range's length, e.g. "1 month" or "1 year, 2 weeks" (UTC, Gregorian calendar).
        public func format(_ value: Range<Date>) -> String {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
            let parts = calendar.dateComponents([.year, .month, .day], from: value.lowerBound, to: value.upperBound)
            var amounts: [(Int, SubscriptionPeriod.Unit)] = []
            if let years = parts.year, years > 0 { amounts.append((years, .year)) }
            if let months = parts.month, months > 0 { amounts.append((months, .month)) }
            if let days = parts.day, days > 0 {
                if days % 7 == 0 { amounts.append((days / 7, .week)) } else { amounts.append((days, .day)) }
            }
            if amounts.isEmpty { amounts.append((0, .day)) }
            let words = PeriodWords(locale)
            return amounts.map { words.count($0.0, $0.1) }.joined(separator: ", ")
        }

        /// The same style in another locale, as `FormatStyle.locale(_:)` asks.
        public func locale(_ locale: Locale) -> SubscriptionPeriodFormatStyle {
            SubscriptionPeriodFormatStyle(locale: locale)
        }
    }
}

extension Product.SubscriptionPeriod {
    /// `formatted(_:referenceDate:)` with a date-range style (`Product.subscriptionPeriodFormatStyle`):
    /// the period starting at `referenceDate`, formatted.
    public func formatted<S>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput
    where S: Foundation.FormatStyle, S.FormatInput == Range<Date> {
        format.format(referenceDate..<end(from: referenceDate))
    }

    /// `formatted(_:referenceDate:)` with a duration style: the period's length from
    /// `referenceDate` (months and years vary), as a `Duration`.
    public func formatted<S>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput
    where S: Foundation.FormatStyle, S.FormatInput == Duration {
        let seconds = end(from: referenceDate).timeIntervalSince(referenceDate)
        return format.format(.seconds(seconds))
    }

    /// When a period that starts at `start` ends, on the Gregorian calendar.
    func end(from start: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let component: Calendar.Component = switch unit {
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
        return calendar.date(byAdding: component, value: value, to: start) ?? start
    }
}

extension Product.SubscriptionPeriod.Unit {
    /// `Unit.localizedDescription`: the unit's name ("Month"), in the user's language.
    public var localizedDescription: String { PeriodWords(.current).name(self) }

    /// `Unit.formatted(_:)`: with `Product.subscriptionPeriodUnitFormatStyle`, the unit named in
    /// the storefront's language.
    public func formatted<S>(_ format: S) -> S.FormatOutput where S: Foundation.FormatStyle, S.FormatInput == Product.SubscriptionPeriod.Unit {
        format.format(self)
    }

    /// `Product.SubscriptionPeriod.Unit.FormatStyle`: names a unit ("month") in a locale.
    public struct FormatStyle: Foundation.FormatStyle, Sendable {
        /// The locale the unit is named in; only its language matters.
        public var locale: Locale

        /// A style for `locale`; the product's `subscriptionPeriodUnitFormatStyle` passes the storefront's.
        public init(locale: Locale = .current) {
            self.locale = locale
        }

        /// The unit's name in lower case ("month", "mois").
        public func format(_ value: Product.SubscriptionPeriod.Unit) -> String {
            PeriodWords(locale).name(value).lowercased(with: locale)
        }

        /// The same style in another locale, as `FormatStyle.locale(_:)` asks.
        public func locale(_ locale: Locale) -> Self { Self(locale: locale) }
    }
}

extension Product.SubscriptionInfo.RenewalState {
    /// `RenewalState.localizedDescription`: the state in words ("Subscribed", "In Grace Period").
    public var localizedDescription: String {
        switch self {
        case .subscribed: "Subscribed"
        case .expired: "Expired"
        case .inBillingRetryPeriod: "In Billing Retry Period"
        case .inGracePeriod: "In Grace Period"
        case .revoked: "Revoked"
        default: "Unknown"
        }
    }
}

extension Product.ProductType {
    /// `ProductType.localizedDescription`: the kind of product in words.
    public var localizedDescription: String {
        switch self {
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        case .nonRenewable: "Non-Renewing Subscription"
        case .autoRenewable: "Auto-Renewable Subscription"
        default: rawValue
        }
    }
}

/// Period unit words in the storefront languages the demo catalogs use; English otherwise.
struct PeriodWords {
    private let language: String

    init(_ locale: Locale) {
        language = locale.language.languageCode?.identifier ?? "en"
    }

    private static let names: [String: [Product.SubscriptionPeriod.Unit: (one: String, many: String)]] = [
        "en": [.day: ("Day", "Days"), .week: ("Week", "Weeks"), .month: ("Month", "Months"), .year: ("Year", "Years")],
        "fr": [.day: ("Jour", "Jours"), .week: ("Semaine", "Semaines"), .month: ("Mois", "Mois"), .year: ("An", "Ans")],
        "de": [.day: ("Tag", "Tage"), .week: ("Woche", "Wochen"), .month: ("Monat", "Monate"), .year: ("Jahr", "Jahre")],
        "es": [.day: ("Día", "Días"), .week: ("Semana", "Semanas"), .month: ("Mes", "Meses"), .year: ("Año", "Años")],
    ]

    private var table: [Product.SubscriptionPeriod.Unit: (one: String, many: String)] {
        Self.names[language] ?? Self.names["en"]!
    }

    func name(_ unit: Product.SubscriptionPeriod.Unit) -> String { table[unit]?.one ?? unit.rawValue }

    /// "1 month", "3 months" (nouns stay capitalized in German).
    func count(_ amount: Int, _ unit: Product.SubscriptionPeriod.Unit) -> String {
        let words = table[unit] ?? (unit.rawValue, unit.rawValue)
        let word = amount == 1 ? words.one : words.many
        return "\(amount) \(language == "de" ? word : word.lowercased())"
    }
}
