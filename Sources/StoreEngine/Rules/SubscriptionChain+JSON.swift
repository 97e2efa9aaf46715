import StoreModel

/// Fast JSON for the chain state, written on every renewal (see `JSONWriter` for why not `JSONEncoder`).
extension SubscriptionChain {
    var jsonBytes: [UInt8] {
        var json = JSONWriter(capacity: 1024)
        json.beginObject()
        json.field("originalTransactionId", originalTransactionId)
        json.field("bundleId", bundleId)
        json.field("customer", customer)
        json.field("groupId", groupId)
        json.field("originalPurchaseMs", originalPurchaseMs)
        json.field("productId", productId)
        json.field("autoRenewProductId", autoRenewProductId)
        json.field("autoRenewEnabled", autoRenewEnabled)
        json.field("latestTransactionId", latestTransactionId)
        json.field("periodStartMs", periodStartMs)
        json.field("expiresMs", expiresMs)
        json.field("state", state.rawValue)
        json.field("gracePeriodExpiresMs", gracePeriodExpiresMs)
        json.field("billingRetryEndsMs", billingRetryEndsMs)
        json.field("expirationIntent", expirationIntent?.rawValue)
        json.field("recentSubscriptionStartMs", recentSubscriptionStartMs)
        json.field("storefront", storefront)
        json.field("storefrontId", storefrontId)
        json.field("currency", currency)
        json.field("renewalPriceMilliunits", renewalPriceMilliunits)
        if let priceIncrease {
            json.beginObject("priceIncrease")
            json.field("newPriceMilliunits", priceIncrease.newPriceMilliunits)
            json.field("needsConsent", priceIncrease.needsConsent)
            json.field("accepted", priceIncrease.accepted)
            json.endObject()
        }
        if let offer {
            json.beginObject("offer")
            json.field("type", offer.type.rawValue)
            json.field("identifier", offer.identifier)
            json.field("discountType", offer.discountType.rawValue)
            json.field("periodISO", offer.periodISO)
            json.field("offerPeriodISO", offer.offerPeriodISO)
            json.field("priceMilliunits", offer.priceMilliunits)
            json.field("remainingPeriods", offer.remainingPeriods)
            json.endObject()
        }
        json.field("appAccountToken", appAccountToken)
        json.field("appTransactionId", appTransactionId)
        json.field("ownership", ownership.rawValue)
        json.field("sharedFromOriginalId", sharedFromOriginalId)
        json.field("extensionDates", extensionDatesMs.map(String.init))
        json.field("nextEvent", nextEvent?.rawValue)
        json.field("nextEventMs", nextEventMs)
        json.field("version", version)
        if let commitment {
            json.beginObject("commitment")
            json.field("periodNumber", commitment.periodNumber)
            json.field("totalPeriods", commitment.totalPeriods)
            json.field("expiresMs", commitment.expiresMs)
            json.field("priceMilliunits", commitment.priceMilliunits)
            json.field("monthlyPriceMilliunits", commitment.monthlyPriceMilliunits)
            json.field("autoRenew", commitment.autoRenew)
            json.endObject()
        }
        json.endObject()
        return json.bytes
    }

    init(json bytes: some Collection<UInt8>) throws {
        let o = try WireObject(json: bytes)
        self.init(
            originalTransactionId: try o.requireInt64("originalTransactionId"), bundleId: try o.require("bundleId"),
            customer: try o.require("customer"), groupId: try o.require("groupId"),
            originalPurchaseMs: try o.requireInt64("originalPurchaseMs"), productId: try o.require("productId"),
            autoRenewProductId: try o.require("autoRenewProductId"), autoRenewEnabled: o.bool("autoRenewEnabled") ?? false,
            latestTransactionId: try o.requireInt64("latestTransactionId"), periodStartMs: try o.requireInt64("periodStartMs"),
            expiresMs: try o.requireInt64("expiresMs"), state: try o.require("state", as: State.self),
            gracePeriodExpiresMs: o.int64("gracePeriodExpiresMs"), billingRetryEndsMs: o.int64("billingRetryEndsMs"),
            expirationIntent: o.optional("expirationIntent", as: ExpirationIntent.self),
            recentSubscriptionStartMs: try o.requireInt64("recentSubscriptionStartMs"),
            storefront: try o.require("storefront"), storefrontId: try o.require("storefrontId"),
            currency: try o.require("currency"), renewalPriceMilliunits: try o.requireInt64("renewalPriceMilliunits"),
            priceIncrease: o.object("priceIncrease").map {
                PriceIncrease(newPriceMilliunits: $0.int64("newPriceMilliunits") ?? 0, needsConsent: $0.bool("needsConsent") ?? true,
                              accepted: $0.bool("accepted") ?? false)
            },
            offer: try o.object("offer").map {
                ActiveOffer(
                    type: $0.optional("type", as: OfferType.self) ?? .introductory, identifier: $0.string("identifier"),
                    discountType: try $0.require("discountType", as: OfferDiscountType.self), periodISO: try $0.require("periodISO"),
                    offerPeriodISO: try $0.require("offerPeriodISO"), priceMilliunits: $0.int64("priceMilliunits") ?? 0,
                    remainingPeriods: $0.int("remainingPeriods") ?? 0)
            },
            appAccountToken: o.string("appAccountToken"), appTransactionId: try o.require("appTransactionId"),
            ownership: o.optional("ownership", as: InAppOwnershipType.self) ?? .purchased,
            sharedFromOriginalId: o.int64("sharedFromOriginalId"),
            extensionDatesMs: (o.strings("extensionDates") ?? []).compactMap(Int64.init),
            nextEvent: o.optional("nextEvent", as: NextEvent.self), nextEventMs: o.int64("nextEventMs"),
            version: o.int64("version") ?? 0)
        commitment = o.object("commitment").flatMap { c in
            guard let number = c.int("periodNumber"), let expires = c.int64("expiresMs") else { return nil }
            return Commitment(periodNumber: number, totalPeriods: c.int("totalPeriods") ?? BillingPlanCommitment.totalPeriods,
                              expiresMs: expires, priceMilliunits: c.int64("priceMilliunits") ?? 0,
                              monthlyPriceMilliunits: c.int64("monthlyPriceMilliunits") ?? 0, autoRenew: c.bool("autoRenew") ?? true)
        }
    }
}
