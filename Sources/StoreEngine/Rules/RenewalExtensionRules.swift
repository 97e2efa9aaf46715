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
    public static let maximumDays = 90
    public static let maximumPerWindow = 2
    public static let windowMs: Int64 = 365 * 86_400_000
    /// Longest `requestIdentifier` accepted (Apple's request model documents 128 characters).
    public static let maximumRequestIdentifierLength = 128

    // Apple's codes (reference §3.2), kept here until `ServerAPIError` carries them.
    public static let invalidExtendByDays = ServerAPIError(code: 4_000_009, message: "Invalid request. The extend by days value is invalid.")
    public static let invalidExtendReasonCode = ServerAPIError(code: 4_000_010, message: "Invalid request. The extend reason code is invalid.")
    public static let invalidRequestIdentifier = ServerAPIError(code: 4_000_011, message: "Invalid request. The request identifier is invalid.")
    public static let invalidEmptyStorefrontCountryCodeList = ServerAPIError(code: 4_000_027, message: "Invalid request. The storefront country code list is empty; omit it to extend in all storefronts.")
    public static let invalidStorefrontCountryCode = ServerAPIError(code: 4_000_028, message: "Invalid request. A storefront country code is invalid.")
    public static let subscriptionExtensionIneligible = ServerAPIError(code: 4_030_004, message: "Forbidden. The subscription doesn't qualify for a renewal-date extension due to its subscription state.")
    public static let subscriptionMaxExtension = ServerAPIError(code: 4_030_005, message: "Forbidden. The subscription has already received the maximum renewal-date extensions.")
    public static let familySharedSubscriptionExtensionIneligible = ServerAPIError(code: 4_030_007, message: "Forbidden. A subscription obtained through Family Sharing can't be extended directly.")
    public static let originalTransactionIdNotFound = ServerAPIError(code: 4_040_005, message: "Original transaction id not found.")
    public static let statusRequestNotFound = ServerAPIError(code: 4_040_009, message: "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.")

    public static func checkDays(_ days: Int64?) throws(ServerAPIError) -> Int {
        guard let days, days >= 1, days <= Int64(maximumDays) else { throw invalidExtendByDays }
        return Int(days)
    }

    /// `extendReasonCode`: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    public static func checkReason(_ code: Int64?) throws(ServerAPIError) -> Int {
        guard let code, (0...3).contains(code) else { throw invalidExtendReasonCode }
        return Int(code)
    }

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
