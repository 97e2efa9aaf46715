import Foundation
import StoreModel

/// How the developer announces a subscription price increase (App Store Connect's choice, and
/// `SKTestSession.requestPriceIncreaseConsentForTransaction`): one that needs the customer's
/// consent, or one the App Store only notifies about (where Apple's rules allow it).
public enum PriceIncreaseMode: String, Codable, Sendable, CaseIterable {
    /// The customer must agree; without consent the subscription expires at its renewal date
    /// (`expirationIntent` 3, EXPIRED / PRICE_INCREASE).
    case consent
    /// The customer is told and the new price applies at the next renewal.
    case notify
}

/// The checks on a requested price increase.
public enum PriceIncreaseRules {
    /// Largest price accepted, in units of the currency (room for currencies such as KRW or IDR).
    public static let maximumPrice: Decimal = 100_000_000

    /// `newPrice` as the store writes prices: a plain decimal string ("5.99", "600") in the
    /// subscriber's currency, at most three decimals (prices travel in milliunits).
    public static func milliunits(_ text: String) throws(StoreError) -> Int64 {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard text.count <= 24, (parts.count == 1 && digits(parts[0])) || (parts.count == 2 && digits(parts[0]) && digits(parts[1]) && parts[1].count <= 3),
              let price = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else {
            throw .malformedRequest("newPrice must be a positive decimal string with at most 3 decimals, in the subscriber's currency (e.g. \"5.99\")")
        }
        // The form is right; the amount is not a price (openapi.json: 422).
        guard price > 0, price <= maximumPrice else {
            throw .unprocessable("newPrice must be above 0 and at most \(maximumPrice), in the subscriber's currency")
        }
        return PriceFormatter.milliunits(price)
    }

    /// A price increase must raise the price the subscriber pays at renewal. (Apple applies
    /// decreases automatically, without consent or notification; they are not this control.)
    public static func check(newPriceMilliunits: Int64, over chain: SubscriptionChain) throws(StoreError) {
        guard chain.state != .expired && chain.state != .revoked else {
            throw .invalidAction("the subscription has ended; a price increase applies to active subscribers only")
        }
        guard chain.ownership == .purchased else {
            throw .invalidAction("a family-shared subscription follows the purchaser's; request the increase on the purchaser's transaction")
        }
        guard newPriceMilliunits > chain.renewalPriceMilliunits else {
            throw .invalidAction("the new price must exceed the current renewal price (\(chain.renewalPriceMilliunits) milliunits of \(chain.currency))")
        }
    }
}
