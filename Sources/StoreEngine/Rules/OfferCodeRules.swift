import Foundation
import StoreModel

/// An offer code as App Store Connect issues it for a code offer: a one-time-use code (one
/// redemption) or a custom code (a name the developer picks, redeemable up to a limit), each
/// with an optional expiry. The `.storekit` file only names the offers; the codes are made by the
/// admin API, as a developer makes them in App Store Connect.
public struct OfferCode: Codable, Sendable, Equatable {
    /// One-time-use (one redemption) or custom (a chosen name, redeemable up to a limit).
    public enum Kind: String, Codable, Sendable { case oneTime, custom }

    /// The code as the customer types it, in uppercase.
    public var code: String
    /// Whether it is a one-time-use or a custom code.
    public var kind: Kind
    /// The app whose offer the code redeems.
    public var bundleId: String
    /// The subscription the code's offer belongs to.
    public var productId: String
    /// The code offer's `referenceName` (what transactions carry as `offerIdentifier`).
    public var offerReferenceName: String?
    /// The code offer's `internalID` in the `.storekit` file, if it has one.
    public var offerInternalID: String?
    /// Nil: no limit (custom codes only).
    public var maxRedemptions: Int?
    /// How many times the code has been redeemed.
    public var redemptions: Int
    /// World time in ms; the code can't be redeemed from then on.
    public var expiresMs: Int64?
    /// When the code was made, on the world's clock.
    public var createdMs: Int64
    /// Customers who redeemed it, in order.
    public var redeemedBy: [String]
}

/// The rules of offer codes: who may redeem which code, and how codes look.
public enum OfferCodeRules {
    /// App Store Connect's one-time-use codes are 18 characters of A–Z and 0–9.
    public static let generatedLength = 18
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    /// Our limit for one request (App Store Connect caps the codes per quarter; we need no such cap).
    public static let maxCodesPerRequest = 10_000
    /// Custom codes given in one request: as many as fit the request body's 64 KiB.
    public static let maxCustomCodesPerRequest = 500
    /// Apple's exact format for custom codes isn't documented in our sources: we accept 1–64
    /// ASCII letters and digits, compared case-insensitively.
    public static let maxCustomCodeLength = 64

    /// Where the customer stands in the offer's subscription group: `new` never subscribed,
    /// `existing` is subscribed now (including grace period and billing retry), `expired` lapsed.
    /// These are the `eligibility` values of `.storekit` code offers.
    public enum Cohort: String, Sendable { case new, existing, expired }

    /// The customer's cohort in the group: from their subscription if they have one, else `new` when
    /// still eligible for an introductory offer, `expired` when not.
    public static func cohort(groupId: String, chain: SubscriptionChain?, history: [OwnedTransaction]) -> Cohort {
        if let chain { return chain.state == .expired || chain.state == .revoked ? .expired : .existing }
        return OfferEligibility.isEligibleForIntroOffer(groupId: groupId, history: history) ? .new : .expired
    }

    /// A code offer names its eligible cohorts; one that names none is open to all.
    public static func isEligible(_ offer: CatalogOffer, cohort: Cohort) -> Bool {
        offer.eligibility.isEmpty || offer.eligibility.contains(cohort.rawValue)
    }

    /// The code offer a name refers to: its `referenceName` or its `internalID`.
    public static func codeOffer(named name: String, in catalog: Catalog) -> (product: CatalogProduct, offer: CatalogOffer)? {
        for product in catalog.products {
            for offer in product.subscription?.codeOffers ?? [] where offer.referenceName == name || offer.internalID == name {
                return (product, offer)
            }
        }
        return nil
    }

    /// The code offer of one product by `referenceName` (`codeOffer(referenceName:)`).
    public static func codeOffer(referenceName: String, for product: CatalogProduct) -> CatalogOffer? {
        product.subscription?.codeOffers.first { $0.referenceName == referenceName || $0.internalID == referenceName }
    }

    /// A typed code as stored: spaces around it trimmed, letters in uppercase.
    public static func normalize(_ code: String) -> String {
        code.trimmingCharacters(in: .whitespaces).uppercased()
    }

    /// The normalized custom code, or `malformedRequest` unless it is 1–64 ASCII letters and digits.
    /// A code being made is taken as written (no spaces around it), as openapi.json's pattern says.
    public static func checkCustomCode(_ code: String) throws(StoreError) -> String {
        let normalized = normalize(code)
        guard !normalized.isEmpty, normalized.count == code.count, normalized.count <= maxCustomCodeLength,
              normalized.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        else { throw .malformedRequest("a custom offer code is 1–\(maxCustomCodeLength) letters A–Z and digits 0–9") }
        return normalized
    }

    /// `count` random one-time-use codes of 18 characters (A–Z, 0–9).
    public static func generate(count: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            String((0..<generatedLength).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        }
    }

    /// Whether `customer` may redeem `code` now. A customer redeems a given code once.
    public static func checkRedeemable(_ code: OfferCode, customer: String, nowMs: Int64) throws(OfferError) {
        if let expires = code.expiresMs, nowMs >= expires {
            throw .offerCodeExpired("offer code \(code.code) expired")
        }
        if let limit = code.maxRedemptions, code.redemptions >= limit {
            throw .offerCodeRedemptionLimitReached("offer code \(code.code) was already redeemed \(code.redemptions) time(s), its limit")
        }
        if code.redeemedBy.contains(customer) {
            throw .ineligibleForOffer("\(customer) already redeemed offer code \(code.code)")
        }
    }
}
