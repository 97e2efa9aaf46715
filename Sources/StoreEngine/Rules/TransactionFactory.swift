import Foundation
import StoreModel

/// Builds the payload of a new purchase exactly as Apple fills `JWSTransactionDecodedPayload`.
public enum TransactionFactory {
    /// The IDs a new purchase gets from the world: its transaction ID and the customer's app transaction ID.
    public struct Identifiers: Sendable {
        /// The new transaction's ID, also its original transaction ID on a first purchase.
        public var transactionId: Int64
        /// The customer's `appTransactionId` for the app, which every transaction carries.
        public var appTransactionId: String
        /// IDs for one new purchase.
        public init(transactionId: Int64, appTransactionId: String) {
            self.transactionId = transactionId
            self.appTransactionId = appTransactionId
        }
    }

    /// A purchase as the customer asked for it, after the rules accepted it.
    public struct Purchase: Sendable {
        /// The app bought in: its bundle ID and environment go into the payload.
        public var app: StoreApp
        /// The product bought, as the catalog describes it.
        public var product: CatalogProduct
        /// The customer's storefront: its country code, ID, currency and price conversion.
        public var storefront: Storefront
        /// How many were bought (more than one only for consumables).
        public var quantity: Int
        /// The app's UUID for the customer, if the app passed one.
        public var appAccountToken: String?
        /// The offer applied, whose price replaces the product's.
        public var offer: CatalogOffer?
        /// When it was bought, on the world's clock: the purchase and signed dates.
        public var purchaseMs: Int64
        /// The world's time rate: a subscription's first period ends by it (`RenewalSchedule`).
        public var rate: TimeRate
        /// A purchase to turn into a payload; `rate` defaults to real time.
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

    /// The payload of a new purchase (its own original transaction), with the offer's fields and, for
    /// a subscription, the end of its first period.
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
