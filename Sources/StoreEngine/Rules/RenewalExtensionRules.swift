import StoreModel

/// Apple's rules for extending a subscription's renewal date (App Store Server API, "Extending
/// the renewal date for auto-renewable subscriptions"):
/// - 1 to 90 days at a time (`extendByDays`), with a reason code 0–3;
/// - at most twice per subscription within 365 days (we count every extension, single or mass,
///   over 365 days of the world's clock);
/// - only paid, active subscriptions: not in a free offer period, not in billing retry, not in a
///   grace period (its expiration date is past), not expired or revoked;
/// - a family member's copy cannot be extended directly; extending the purchaser's extends it.
public enum RenewalExtensionRules {
    /// The most days one extension may add.
    public static let maximumDays = 90
    /// How many extensions one subscription may get within `windowMs`.
    public static let maximumPerWindow = 2
    /// The 365-day window the extension limit counts over.
    public static let windowMs: Int64 = 365 * 86_400_000
    /// Longest `requestIdentifier` accepted (Apple's request model documents 128 characters).
    public static let maximumRequestIdentifierLength = 128

    // Apple's codes (reference §3.2), kept here until `ServerAPIError` carries them.
    /// Apple's `InvalidExtendByDaysError`: `extendByDays` is missing or not 1–90.
    public static let invalidExtendByDays = ServerAPIError(code: 4_000_009, message: "Invalid request. The extend by days value is invalid.")
    /// Apple's `InvalidExtendReasonCodeError`: `extendReasonCode` is missing or not 0–3.
    public static let invalidExtendReasonCode = ServerAPIError(code: 4_000_010, message: "Invalid request. The extend reason code is invalid.")
    /// Apple's `InvalidRequestIdentifierError`: `requestIdentifier` is missing, empty, too long or has
    /// control characters.
    public static let invalidRequestIdentifier = ServerAPIError(code: 4_000_011, message: "Invalid request. The request identifier is invalid.")
    /// Apple's `InvalidEmptyStorefrontCountryCodeListError`: `storefrontCountryCodes` is an empty list.
    public static let invalidEmptyStorefrontCountryCodeList = ServerAPIError(code: 4_000_027, message: "Invalid request. The storefront country code list is empty; omit it to extend in all storefronts.")
    /// Apple's `InvalidStorefrontCountryCodeError`: a code that is not a known ISO 3166-1 alpha-3 storefront.
    public static let invalidStorefrontCountryCode = ServerAPIError(code: 4_000_028, message: "Invalid request. A storefront country code is invalid.")
    /// Apple's `SubscriptionExtensionIneligibleError`: the subscription is not active, paid and unexpired.
    public static let subscriptionExtensionIneligible = ServerAPIError(code: 4_030_004, message: "Forbidden. The subscription doesn't qualify for a renewal-date extension due to its subscription state.")
    /// Apple's `SubscriptionMaxExtensionError`: two extensions were already granted within 365 days.
    public static let subscriptionMaxExtension = ServerAPIError(code: 4_030_005, message: "Forbidden. The subscription has already received the maximum renewal-date extensions.")
    /// Apple's `FamilySharedSubscriptionExtensionIneligibleError`: a family member's copy; extend the
    /// purchaser's subscription instead.
    public static let familySharedSubscriptionExtensionIneligible = ServerAPIError(code: 4_030_007, message: "Forbidden. A subscription obtained through Family Sharing can't be extended directly.")
    /// Apple's `OriginalTransactionIdNotFoundError`: no purchase of the caller's app has that original
    /// transaction ID.
    public static let originalTransactionIdNotFound = ServerAPIError(code: 4_040_005, message: "Original transaction id not found.")
    /// Apple's `StatusRequestNotFoundError`: no mass extension with that request identifier and product.
    public static let statusRequestNotFound = ServerAPIError(code: 4_040_009, message: "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.")

    /// The days to extend by, or `invalidExtendByDays` unless 1 to 90.
    public static func checkDays(_ days: Int64?) throws(ServerAPIError) -> Int {
        guard let days, days >= 1, days <= Int64(maximumDays) else { throw invalidExtendByDays }
        return Int(days)
    }

    /// `extendReasonCode`: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public static func checkReason(_ code: Int64?) throws(ServerAPIError) -> Int {
        guard let code, (0...3).contains(code) else { throw invalidExtendReasonCode }
        return Int(code)
    }

    /// The request identifier, or `invalidRequestIdentifier` when missing, empty, over 128 characters
    /// or holding control characters.
    public static func checkRequestIdentifier(_ text: String?) throws(ServerAPIError) -> String {
        guard let text, !text.isEmpty, text.count <= maximumRequestIdentifierLength,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw invalidRequestIdentifier }
        return text
    }

    /// Omitted means every storefront (Apple: "To indicate that the extension applies in all
    /// storefronts, omit the storefrontCountryCodes"); an empty list is error 4000027.
    public static func checkStorefronts(_ codes: [String]?) throws(ServerAPIError) -> Set<String>? {
        guard let codes else { return nil }
        guard !codes.isEmpty else { throw invalidEmptyStorefrontCountryCodeList }
        var set: Set<String> = []
        for code in codes {
            guard code.count == 3, let storefront = Storefront.lookup(code) else { throw invalidStorefrontCountryCode }
            set.insert(storefront.countryCode)
        }
        return set
    }

    /// Why this subscription cannot be extended now, or nil when it can. `current` is the
    /// chain's latest transaction.
    public static func ineligibility(of chain: SubscriptionChain, current: TransactionPayload, nowMs: Int64) -> ServerAPIError? {
        if chain.ownership == .familyShared || chain.sharedFromOriginalId != nil { return familySharedSubscriptionExtensionIneligible }
        guard chain.state == .active, chain.expiresMs > nowMs, current.revocationDate == nil else { return subscriptionExtensionIneligible }
        if current.offerDiscountType == .freeTrial { return subscriptionExtensionIneligible }
        if extensions(of: chain, nowMs: nowMs) >= maximumPerWindow { return subscriptionMaxExtension }
        return nil
    }

    /// Extensions granted in the 365 days before `nowMs`.
    public static func extensions(of chain: SubscriptionChain, nowMs: Int64) -> Int {
        chain.extensionDatesMs.filter { $0 > nowMs - windowMs && $0 <= nowMs }.count
    }

    /// The new expiration date. Days follow the world's time rate like subscription periods do:
    /// calendar days in real time, and scaled with the month under Apple's accelerated rates.
    public static func extendedExpiry(_ expiresMs: Int64, byDays days: Int, rate: TimeRate) -> Int64 {
        RenewalSchedule.end(of: SubscriptionPeriod(unit: .day, value: days), startingAt: expiresMs, rate: rate)
    }
}
