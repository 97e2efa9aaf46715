import Foundation

/// Formats catalog prices the way StoreKit's `displayPrice` does, and converts them to the
/// milliunits of signed transactions, with exact `Decimal` arithmetic (never `Double`).
public enum PriceFormatter {
    /// `price` formatted with Foundation's currency style for `locale` and `currency`; fraction
    /// digits follow the currency (JPY and KRW 0, USD 2, BHD and KWD 3).
    ///
    /// ICU data differs between platforms and versions, so the result is normalized to what
    /// Apple devices show:
    /// - the space between amount and symbol is always U+00A0 NO-BREAK SPACE ("4,99\u{A0}€"),
    ///   never U+202F NARROW NO-BREAK SPACE, which newer CLDR data uses for some locales;
    /// - the yen/yuan sign is the halfwidth U+00A5 "¥", never the fullwidth U+FFE5 "￥".
    public static func format(_ price: Decimal, currency: String, locale: String) -> String {
        let style = Decimal.FormatStyle.Currency(code: currency, locale: Locale(identifier: locale))
        return normalize(price.formatted(style))
    }

    static func normalize(_ text: String) -> String {
        var result = text
        result = result.replacingOccurrences(of: "\u{202F}", with: "\u{00A0}")
        result = result.replacingOccurrences(of: "\u{FFE5}", with: "\u{00A5}")
        return result
    }

    /// `price` × 1000, rounded half up to a whole number (4.99 → 4990, 0.0005 → 1). Saturates at
    /// the `Int64` range instead of trapping.
    public static func milliunits(_ price: Decimal) -> Int64 {
        if let known = rememberedLock.withLock({ remembered[price] }) { return known }
        let value = roundedMilliunits(price)
        rememberedLock.withLock {
            if remembered.count >= 4_096 { remembered.removeAll() }
            remembered[price] = value
        }
        return value
    }

    /// Catalogs hold a few hundred prices at most, and Decimal arithmetic (multiply, round,
    /// print, parse) cost every purchase and renewal about 1 % of its CPU: each price is worked
    /// out once. Bounded, so prices from elsewhere (a price increase typed in) cannot grow it.
    /// NSLock rather than `Mutex`: this module also builds for macOS 14.
    private static let rememberedLock = NSLock()
    nonisolated(unsafe) private static var remembered: [Decimal: Int64] = [:]

    /// The general case, with Decimal arithmetic.
    static func roundedMilliunits(_ price: Decimal) -> Int64 {
        var scaled = price * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        if rounded.isNaN { return 0 }
        if rounded >= Decimal(Int64.max) { return Int64.max }
        if rounded <= Decimal(Int64.min) { return Int64.min }
        return Int64(rounded.description) ?? NSDecimalNumber(decimal: rounded).int64Value
    }
}
