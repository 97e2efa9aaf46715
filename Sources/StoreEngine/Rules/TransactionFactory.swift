import Foundation
import StoreModel

/// Builds the payload of a new purchase exactly as Apple fills `JWSTransactionDecodedPayload`.
public enum TransactionFactory {
    public struct Identifiers: Sendable {
        public var transactionId: Int64
        public var appTransactionId: String
        public init(transactionId: Int64, appTransactionId: String) {
            self.transactionId = transactionId
            self.appTransactionId = appTransactionId
        }
    }

    /// A purchase as the customer asked for it, after the rules accepted it.
    public struct Purchase: Sendable {
        public var app: StoreApp
        public var product: CatalogProduct
        public var storefront: Storefront
        public var quantity: Int
        public var appAccountToken: String?
        public var offer: CatalogOffer?
        public var purchaseMs: Int64
        /// The world's time rate: a subscription's first period ends by it (`RenewalSchedule`).
        public var rate: TimeRate
        public init(app: StoreApp, product: CatalogProduct, storefront: Storefront, quantity: Int, appAccountToken: String?,
                    offer: CatalogOffer?, purchaseMs: Int64, rate: TimeRate = .realTime) {
            self.rate = rate
            self.app = app
            self.product = product
            self.storefront = storefront
            self.quantity = quantity
            self.appAccountToken = appAccountToken
            self.offer = offer
            self.purchaseMs = purchaseMs
        }
    }

    /// `webOrderLineItemId` identifies one subscription period across devices; it is distinct from
    /// the transaction ID but derived from it so that it is unique without another counter.
    public static func webOrderLineItemId(for transactionId: Int64) -> String {
        String(transactionId + 1_000_000_000_000_000)
    }

    public static func firstPurchase(_ purchase: Purchase, ids: Identifiers) -> TransactionPayload {
        let product = purchase.product
        let id = String(ids.transactionId)
        let isSubscription = product.kind == .autoRenewable
        let price = purchase.offer.map { $0.price ?? 0 } ?? product.price
        var payload = TransactionPayload(
            originalTransactionId: id,
            transactionId: id,
            webOrderLineItemId: isSubscription ? webOrderLineItemId(for: ids.transactionId) : nil,
            bundleId: purchase.app.bundleId,
            productId: product.id,
            subscriptionGroupIdentifier: product.subscription?.groupID,
            purchaseDate: purchase.purchaseMs,
            originalPurchaseDate: purchase.purchaseMs,
            expiresDate: nil,
            quantity: purchase.quantity,
            type: product.kind.transactionType,
            appAccountToken: purchase.appAccountToken,
            inAppOwnershipType: .purchased,
            signedDate: purchase.purchaseMs,
            environment: purchase.app.environment,
            storefront: purchase.storefront.countryCode,
            storefrontId: purchase.storefront.id,
            transactionReason: .purchase,
            currency: purchase.storefront.currency,
            price: purchase.storefront.milliunits(price),
            appTransactionId: ids.appTransactionId)
        if let subscription = product.subscription {
            payload.expiresDate = firstPeriodEnd(startMs: purchase.purchaseMs, subscription: subscription, offer: purchase.offer, rate: purchase.rate)
        }
        if let offer = purchase.offer {
            payload.offerType = offer.offerType
            payload.offerIdentifier = offer.kind == .introductory ? nil : (offer.id ?? offer.referenceName)
            payload.offerDiscountType = offer.discountType
            payload.offerPeriod = offer.totalDuration.iso8601
        }
        if BillingPlanCommitment.offersPlans(product) { payload.billingPlanType = .billedUpfront }
        return payload
    }

    /// When the first paid or free period ends: a free trial or pay-up-front offer covers its whole
    /// duration; a pay-as-you-go offer bills period by period; no offer means one regular period.
    /// At the world's rate, so the payload's `expiresDate` is the chain's and is computed once.
    public static func firstPeriodEnd(startMs: Int64, subscription: CatalogSubscription, offer: CatalogOffer?, rate: TimeRate) -> Int64 {
        guard let offer else { return RenewalSchedule.end(of: subscription.period, startingAt: startMs, rate: rate) }
        return OfferPeriod.end(startingAt: startMs, offer: offer, rate: rate)
    }
}

extension TransactionFactory {
    /// A transaction for one period of a subscription chain: a renewal, a resubscription or a plan
    /// change. It keeps the chain's original transaction, storefront and account token.
    public static func subscriptionPeriod(
        chain: SubscriptionChain, app: StoreApp, product: CatalogProduct, transactionId: Int64,
        purchaseMs: Int64, expiresMs: Int64, priceMilliunits: Int64, reason: TransactionReason,
        offer: SubscriptionChain.ActiveOffer?
    ) -> TransactionPayload {
        var payload = TransactionPayload(
            originalTransactionId: String(chain.originalTransactionId),
            transactionId: String(transactionId),
            webOrderLineItemId: webOrderLineItemId(for: transactionId),
            bundleId: app.bundleId,
            productId: product.id,
            subscriptionGroupIdentifier: chain.groupId,
            purchaseDate: purchaseMs,
            originalPurchaseDate: chain.originalPurchaseMs,
            expiresDate: expiresMs,
            quantity: 1,
            type: .autoRenewable,
            appAccountToken: chain.appAccountToken,
            inAppOwnershipType: chain.ownership,
            signedDate: purchaseMs,
            environment: app.environment,
            storefront: chain.storefront,
            storefrontId: chain.storefrontId,
            transactionReason: reason,
            currency: chain.currency,
            price: priceMilliunits,
            appTransactionId: chain.appTransactionId)
        if let offer {
            payload.offerType = offer.type
            payload.offerIdentifier = offer.identifier
            payload.offerDiscountType = offer.discountType
            payload.offerPeriod = offer.offerPeriodISO
        }
        if let commitment = chain.commitment {
            payload.billingPlanType = .monthly
            payload.commitmentInfo = BillingPlanCommitment.transactionInfo(commitment)
        } else if BillingPlanCommitment.offersPlans(product) {
            payload.billingPlanType = .billedUpfront
        }
        return payload
    }

    /// The running form of an offer the customer just redeemed: pay-as-you-go offers keep
    /// applying for their remaining periods.
    public static func activeOffer(_ offer: CatalogOffer, storefront: Storefront) -> SubscriptionChain.ActiveOffer {
        SubscriptionChain.ActiveOffer(
            type: offer.offerType,
            identifier: offer.kind == .introductory ? nil : (offer.id ?? offer.referenceName),
            discountType: offer.discountType,
            periodISO: offer.period.iso8601,
            offerPeriodISO: offer.totalDuration.iso8601,
            priceMilliunits: storefront.milliunits(offer.price ?? 0),
            remainingPeriods: offer.paymentMode == .payAsYouGo ? max(offer.periodCount - 1, 0) : 0)
    }
}
