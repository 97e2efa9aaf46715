/// Fast JSON for the payloads Apple's verifiers decode. Field order and names follow Apple's
/// models; nil fields are left out, as Apple does.
extension TransactionPayload {
    /// Writes the payload as Apple's model orders it, leaving out nil fields.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("transactionId", transactionId)
        json.field("originalTransactionId", originalTransactionId)
        json.field("webOrderLineItemId", webOrderLineItemId)
        json.field("bundleId", bundleId)
        json.field("productId", productId)
        json.field("subscriptionGroupIdentifier", subscriptionGroupIdentifier)
        json.field("purchaseDate", purchaseDate)
        json.field("originalPurchaseDate", originalPurchaseDate)
        json.field("expiresDate", expiresDate)
        json.field("quantity", quantity)
        json.field("type", type.rawValue)
        json.field("appAccountToken", appAccountToken)
        json.field("inAppOwnershipType", inAppOwnershipType.rawValue)
        json.field("signedDate", signedDate)
        json.field("revocationReason", revocationReason?.rawValue)
        json.field("revocationDate", revocationDate)
        json.field("isUpgraded", isUpgraded)
        json.field("offerType", offerType?.rawValue)
        json.field("offerIdentifier", offerIdentifier)
        json.field("environment", environment.rawValue)
        json.field("storefront", storefront)
        json.field("storefrontId", storefrontId)
        json.field("transactionReason", transactionReason.rawValue)
        json.field("currency", currency)
        json.field("price", price)
        json.field("offerDiscountType", offerDiscountType?.rawValue)
        json.field("appTransactionId", appTransactionId)
        json.field("offerPeriod", offerPeriod)
        json.field("revocationType", revocationType?.rawValue)
        json.field("revocationPercentage", revocationPercentage)
        json.field("billingPlanType", billingPlanType?.rawValue)
        commitmentInfo?.write(to: &json)
        json.endObject()
    }

    /// Decodes stored payload JSON; throws when a required field is missing or mistyped.
    public init(json bytes: some Collection<UInt8>) throws {
        let o = try WireObject(bytes: Array(bytes))
        self.init(
            originalTransactionId: try o.require("originalTransactionId"), transactionId: try o.require("transactionId"),
            webOrderLineItemId: o.string("webOrderLineItemId"), bundleId: try o.require("bundleId"),
            productId: try o.require("productId"), subscriptionGroupIdentifier: o.string("subscriptionGroupIdentifier"),
            purchaseDate: try o.requireInt64("purchaseDate"), originalPurchaseDate: try o.requireInt64("originalPurchaseDate"),
            expiresDate: o.int64("expiresDate"), quantity: o.int("quantity") ?? 1,
            type: try o.require("type", as: TransactionType.self), appAccountToken: o.string("appAccountToken"),
            inAppOwnershipType: o.optional("inAppOwnershipType", as: InAppOwnershipType.self) ?? .purchased,
            signedDate: o.int64("signedDate") ?? 0, revocationReason: o.optional("revocationReason", as: RevocationReason.self),
            revocationDate: o.int64("revocationDate"), isUpgraded: o.bool("isUpgraded"),
            offerType: o.optional("offerType", as: OfferType.self), offerIdentifier: o.string("offerIdentifier"),
            environment: try o.require("environment", as: StoreEnvironment.self), storefront: try o.require("storefront"),
            storefrontId: try o.require("storefrontId"),
            transactionReason: o.optional("transactionReason", as: TransactionReason.self) ?? .purchase,
            currency: try o.require("currency"), price: o.int64("price") ?? 0,
            offerDiscountType: o.optional("offerDiscountType", as: OfferDiscountType.self),
            appTransactionId: try o.require("appTransactionId"), offerPeriod: o.string("offerPeriod"),
            revocationType: o.optional("revocationType", as: RevocationType.self),
            revocationPercentage: o.int("revocationPercentage"))
        billingPlanType = o.optional("billingPlanType", as: BillingPlanType.self)
        commitmentInfo = TransactionCommitmentInfo(o.object("commitmentInfo"))
    }
}

extension RenewalInfoPayload {
    /// Writes the payload as Apple's model orders it, leaving out nil fields.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("originalTransactionId", originalTransactionId)
        json.field("autoRenewProductId", autoRenewProductId)
        json.field("productId", productId)
        json.field("autoRenewStatus", autoRenewStatus.rawValue)
        json.field("expirationIntent", expirationIntent?.rawValue)
        json.field("isInBillingRetryPeriod", isInBillingRetryPeriod)
        json.field("priceIncreaseStatus", priceIncreaseStatus?.rawValue)
        json.field("gracePeriodExpiresDate", gracePeriodExpiresDate)
        json.field("offerType", offerType?.rawValue)
        json.field("offerIdentifier", offerIdentifier)
        json.field("offerDiscountType", offerDiscountType?.rawValue)
        json.field("offerPeriod", offerPeriod)
        json.field("signedDate", signedDate)
        json.field("environment", environment.rawValue)
        json.field("recentSubscriptionStartDate", recentSubscriptionStartDate)
        json.field("renewalDate", renewalDate)
        json.field("currency", currency)
        json.field("renewalPrice", renewalPrice)
        json.field("eligibleWinBackOfferIds", eligibleWinBackOfferIds)
        json.field("appAccountToken", appAccountToken)
        json.field("appTransactionId", appTransactionId)
        json.field("renewalBillingPlanType", renewalBillingPlanType?.rawValue)
        commitmentInfo?.write(to: &json)
        json.endObject()
    }
}

extension AppTransactionPayload {
    /// Writes the payload as Apple's model orders it, leaving out nil fields.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("receiptType", receiptType.rawValue)
        json.field("appAppleId", appAppleId)
        json.field("bundleId", bundleId)
        json.field("applicationVersion", applicationVersion)
        json.field("versionExternalIdentifier", versionExternalIdentifier)
        json.field("receiptCreationDate", receiptCreationDate)
        json.field("requestDate", requestDate)
        json.field("originalPurchaseDate", originalPurchaseDate)
        json.field("originalApplicationVersion", originalApplicationVersion)
        json.field("deviceVerification", deviceVerification)
        json.field("deviceVerificationNonce", deviceVerificationNonce)
        json.field("preorderDate", preorderDate)
        json.field("appTransactionId", appTransactionId)
        json.field("originalPlatform", originalPlatform.rawValue)
        json.field("signedDate", signedDate)
        json.endObject()
    }
}

/// A wire payload that writes itself with `JSONWriter`; its bytes are what the store signs.
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

extension JSONWritable {
    /// The payload's JSON, exactly the bytes the store signs.
    public var jsonBytes: [UInt8] {
        var json = JSONWriter()
        write(to: &json)
        return json.bytes
    }
}

extension TransactionPayload: JSONWritable {}
extension RenewalInfoPayload: JSONWritable {}
extension AppTransactionPayload: JSONWritable {}
