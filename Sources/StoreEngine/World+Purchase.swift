import Foundation
import StoreModel
import StoreStorage

/// What a purchase came to. Ask to Buy and interrupted purchases wait for the Transaction
/// Manager; a plan change that waits for the renewal answers with the current transaction.
struct WorldPurchase: Sendable {
    var status: PurchaseStatus
    var transaction: TransactionRecord?
    var chain: SubscriptionChain?
    var pendingId: String?
    /// The new transaction's payload as decided (its JSON is `transaction.payload`): the answer
    /// signs it without parsing the stored JSON back.
    var payload: TransactionPayload?
    /// The new transaction and the chain's renewal info signed in the decision's turn, from the
    /// very bytes handed to the committer: the answer is spliced from them after the commit.
    var signedTransaction: Signed<TransactionPayload>?
    var signedRenewalInfo: Signed<RenewalInfoPayload>?
    /// The world's clock when the purchase was decided: the answer reads the time from it
    /// after the commit without entering the world again.
    var clock: WorldClock?
    /// Whether the world simulated a verification failure when the purchase was decided.
    var simulatesVerificationFailure: Bool?
}

extension World {
    /// Decides and commits one purchase by Apple's rules. Not an entry point: every purchase
    /// comes through `purchase(_:offer:allowPending:)` (World+Offers), which loads the families
    /// first and shares what this did not.
    func decidePurchase(_ request: PurchaseRequest, offer requested: CatalogOffer? = nil, allowPending: Bool = true) async throws -> WorldPurchase {
        try await catchUp()
        let app = try app(request.bundleId)
        guard let product = app.catalog.product(request.productId) else {
            throw StoreError.productUnavailable("\(request.productId) is not a product of \(app.bundleId)")
        }
        try PurchaseRules.checkQuantity(request.quantity, for: product)
        let plan = try BillingPlanCommitment.plan(request.billingPlanType, for: product)
        let token = try PurchaseRules.appAccountToken(
            request.appAccountToken ?? ApplicationUsername.appAccountToken(for: request.applicationUsername))
        try PurchaseRules.checkPurchaseDate(request.purchaseDateMs, environment: app.environment, nowMs: nowMs())
        var batch = WriteBatch()
        let customer = try await customerCreatingIfNeeded(request.customer, app: app, batch: &batch)
        let storefront = try AppStore.storefront(customer.storefront)
        let key = CustomerKey(bundleId: app.bundleId, customer: request.customer)
        let appTransaction = try await appTransactionCreatingIfNeeded(key, batch: &batch)
        _ = try await history(key)
        let latest = try await latestTransactionOfChain(for: product, key: key)

        // From here on no suspension until the commit: the rules see one consistent state.
        if let error = settings.simulatedErrors["Purchase"] { throw StoreError.simulated(api: "Purchase", error: error) }
        // The deprecated "Fail Transactions" switch: every purchase fails with `failureError`.
        if settings.failTransactions ?? app.catalog.settings.failTransactionsEnabled {
            throw StoreError.simulated(api: "Purchase", error: settings.failureError ?? "unknown")
        }
        let asksToBuy = app.environment != .production ? request.simulatesAskToBuy ?? askToBuy(app) : askToBuy(app)
        if allowPending, asksToBuy || interruptedPurchases(app) {
            let pending = PendingPurchase(
                id: String(env.identifiers.nextId()), kind: asksToBuy ? .askToBuy : .interrupted,
                request: .init(request), createdMs: nowMs())
            batch.worldRecords.append(pending.record(world: id))
            try await commit(batch)
            return WorldPurchase(status: pending.kind == .askToBuy ? .pending : .interrupted, pendingId: pending.id)
        }

        let history = histories[key] ?? []
        let now = nowMs()
        // StoreKitTest's `.purchaseDate(_:renewalBehavior:)`: decided as if bought then.
        let purchaseMs = request.purchaseDateMs ?? now
        var result: WorldPurchase
        if product.kind == .autoRenewable {
            result = try subscribe(app: app, product: product, storefront: storefront, key: key, token: token,
                                   appTransactionId: appTransaction.appTransactionId, offer: requested, history: history,
                                   latest: latest, now: purchaseMs, plan: plan, introductoryOfferAllowed: request.introductoryOfferAllowed,
                                   batch: &batch)
            if request.cancelsAfterFirstPeriod, var chain = result.chain, chain.autoRenewEnabled {
                chain.autoRenewEnabled = false
                chain.expirationIntent = .customerCancelled
                store(chain, in: &batch)
                emit(.didChangeRenewalStatus, .autoRenewDisabled, chain: chain, key: key,
                     transactionId: chain.latestTransactionId, atMs: purchaseMs, in: &batch)
                result.chain = chains[chain.originalTransactionId]
            }
        } else {
            try PurchaseRules.checkNotOwned(product, history: history, nowMs: purchaseMs)
            let ids = TransactionFactory.Identifiers(transactionId: env.identifiers.nextId(), appTransactionId: appTransaction.appTransactionId)
            let payload = TransactionFactory.firstPurchase(
                .init(app: app, product: product, storefront: storefront, quantity: request.quantity,
                      appAccountToken: token, offer: nil, purchaseMs: purchaseMs), ids: ids)
            let record = try store(payload, kind: product.kind, customer: key.customer, in: &batch)
            emit(.oneTimeCharge, key: key, transactionId: record.id, atMs: purchaseMs, in: &batch)
            try shareWithFamily(record, product: product, app: app, in: &batch)
            result = WorldPurchase(status: .purchased, transaction: record, payload: payload)
        }
        var answered = result
        answered.clock = settings.clock
        answered.simulatesVerificationFailure = settings.simulatedErrors["Verification"] != nil
        sign(&answered, app: app, now: now)
        try await commit(batch)
        // A purchase in the past: its renewals (or its expiry) up to now are applied before the answer.
        if purchaseMs < now { try await catchUp() }
        return answered
    }

    /// Signs what the purchase made, dated at the decision (its purchase date): the transaction
    /// from the bytes the batch stores, the renewal info from the chain as decided.
    func sign(_ result: inout WorldPurchase, app: StoreApp, now: Int64) {
        if let record = result.transaction, let payload = result.payload, payload.transactionId == String(record.id),
           payload.signedDate == now {
            let json = Array(record.payload.utf8)
            result.signedTransaction = Signed(jws: env.signer.sign(payloadJSON: json), payload: payload, payloadJSON: json)
        }
        if let chain = result.chain {
            result.signedRenewalInfo = RenewalInfoView.signed(chain, app: app, signer: env.signer, nowMs: now)
        }
    }

    /// An auto-renewable purchase: a first subscription, a resubscription after a lapse, or a
    /// plan change inside the group, each by Apple's rules.
    func subscribe(
        app: StoreApp, product: CatalogProduct, storefront: Storefront, key: CustomerKey, token: String?,
        appTransactionId: String, offer requested: CatalogOffer?, history: [OwnedTransaction],
        latest: TransactionRecord?, now: Int64, plan: BillingPlan? = nil, introductoryOfferAllowed: Bool? = nil,
        batch: inout WriteBatch
    ) throws -> WorldPurchase {
        guard let subscription = product.subscription else { throw StoreError.productUnavailable(product.id) }
        let chainKey = ChainKey(bundleId: app.bundleId, customer: key.customer, groupId: subscription.groupID)
        let regular = storefront.milliunits(product.price)
        if let plan {
            return try subscribeWithCommitment(app: app, product: product, plan: plan, storefront: storefront, key: key, token: token,
                                               appTransactionId: appTransactionId, chain: chain(chainKey), now: now, batch: &batch)
        }

        guard var chain = chain(chainKey) else {
            // A first subscription in the group: the intro offer applies if the customer never had
            // one, or as the developer's signed eligibility verdict says.
            let offer = requested ?? OfferEligibility.introductoryOffer(for: product, history: history, allowed: introductoryOfferAllowed)
            let transactionId = env.identifiers.nextId()
            let payload = TransactionFactory.firstPurchase(
                .init(app: app, product: product, storefront: storefront, quantity: 1, appAccountToken: token,
                      offer: offer, purchaseMs: now, rate: rate),
                ids: .init(transactionId: transactionId, appTransactionId: appTransactionId))
            // The factory computed the first period's end at the world's rate; the chain takes it as is.
            let expires = payload.expiresDate ?? now
            var chain = SubscriptionChain(
                originalTransactionId: transactionId, bundleId: app.bundleId, customer: key.customer,
                groupId: subscription.groupID, originalPurchaseMs: now, productId: product.id,
                autoRenewProductId: product.id, autoRenewEnabled: true, latestTransactionId: transactionId,
                periodStartMs: now, expiresMs: expires, state: .active, recentSubscriptionStartMs: now,
                storefront: storefront.countryCode, storefrontId: storefront.id, currency: storefront.currency,
                renewalPriceMilliunits: regular, offer: offer.map { TransactionFactory.activeOffer($0, storefront: storefront) },
                appAccountToken: token, appTransactionId: appTransactionId, ownership: .purchased,
                extensionDatesMs: [], version: 0)
            chain.schedule(.renewal, at: expires)
            let record = try store(payload, kind: .autoRenewable, customer: key.customer, in: &batch)
            store(chain, in: &batch)
            // SUBSCRIBED with or without an offer: "Changed the notification type the App Store
            // server sends when a customer redeems a subscription offer for an inactive subscription
            // to the SUBSCRIBED notificationType" (notifications changelog, January 23, 2024);
            // OFFER_REDEEMED is for active subscriptions only (World+Offers).
            emit(.subscribed, .initialBuy, chain: chain, key: key, transactionId: record.id, atMs: now, in: &batch)
            try shareWithFamily(record, product: product, app: app, in: &batch)
            return WorldPurchase(status: .purchased, transaction: record, chain: chains[chain.originalTransactionId], payload: payload)
        }

        if chain.state == .expired || chain.state == .revoked {
            // A resubscription continues the chain; recentSubscriptionStartDate survives lapses under 60 days.
            let transactionId = env.identifiers.nextId()
            // Apple's rule gives a lapsed subscriber no intro offer; the developer's verdict may.
            let offer = requested ?? (introductoryOfferAllowed == true ? OfferEligibility.introductoryOffer(of: product) : nil)
            let expires = offer.map { offerEnd(start: now, offer: $0) } ?? RenewalSchedule.end(of: subscription.period, startingAt: now, rate: rate)
            chain.recentSubscriptionStartMs = RecentSubscriptionStart.afterResubscribing(
                previousStartMs: chain.recentSubscriptionStartMs, lastExpiryMs: chain.expiresMs, resubscribedMs: now)
            chain.beginPeriod(productId: product.id, transactionId: transactionId, startMs: now, expiresMs: expires,
                              regularPriceMilliunits: regular, offer: offer.map { TransactionFactory.activeOffer($0, storefront: storefront) })
            if let token { chain.appAccountToken = token }
            let payload = TransactionFactory.subscriptionPeriod(
                chain: chain, app: app, product: product, transactionId: transactionId, purchaseMs: now,
                expiresMs: expires, priceMilliunits: chain.offer?.priceMilliunits ?? regular, reason: .purchase, offer: chain.offer)
            let record = try store(payload, kind: .autoRenewable, customer: key.customer, in: &batch)
            store(chain, in: &batch)
            // A lapsed subscriber's offer (promotional, code, win-back) is SUBSCRIBED / RESUBSCRIBE too.
            emit(.subscribed, .resubscribe, chain: chain, key: key, transactionId: record.id, atMs: now, in: &batch)
            try shareWithFamily(record, product: product, app: app, in: &batch)
            return WorldPurchase(status: .purchased, transaction: record, chain: chains[chain.originalTransactionId], payload: payload)
        }

        // The customer is subscribed (or in billing retry): this is a plan change.
        guard let current = app.catalog.product(chain.productId) else { throw StoreError.productUnavailable(chain.productId) }
        let change = PlanChange.between(current, product)
        if chain.commitment != nil, change != .sameProduct {
            throw StoreError.invalidAction("\(key.customer) is in a 12-month commitment to \(chain.productId); plan changes during a commitment are not modelled")
        }
        if change == .sameProduct {
            if chain.autoRenewProductId != chain.productId {
                // Choosing the current plan again cancels a pending downgrade.
                chain.autoRenewProductId = chain.productId
                store(chain, in: &batch)
                emit(.didChangeRenewalPref, chain: chain, key: key, transactionId: chain.latestTransactionId, atMs: now, in: &batch)
            } else if !chain.autoRenewEnabled {
                chain.autoRenewEnabled = true
                store(chain, in: &batch)
                emit(.didChangeRenewalStatus, .autoRenewEnabled, chain: chain, key: key, transactionId: chain.latestTransactionId, atMs: now, in: &batch)
            } else {
                throw StoreError.alreadyPurchased("the customer is already subscribed to \(product.id)")
            }
            return WorldPurchase(status: .purchased, transaction: batch.transactions.last, chain: chains[chain.originalTransactionId])
        }
        let immediate = PlanChange.isImmediate(change, from: current, to: product)
        guard immediate else {
            chain.autoRenewProductId = product.id
            chain.autoRenewEnabled = true
            store(chain, in: &batch)
            emit(.didChangeRenewalPref, PlanChange.notificationSubtype(immediate: false), chain: chain, key: key,
                 transactionId: chain.latestTransactionId, atMs: now, in: &batch)
            return WorldPurchase(status: .purchased, transaction: nil, chain: chains[chain.originalTransactionId])
        }
        // An upgrade starts a new period at once; the old transaction is marked upgraded.
        let transactionId = env.identifiers.nextId()
        let expires = RenewalSchedule.end(of: subscription.period, startingAt: now, rate: rate)
        if let latest, latest.id == chain.latestTransactionId {
            _ = try modify(latest, in: &batch) { payload, _ in payload.isUpgraded = true }
        }
        chain.beginPeriod(productId: product.id, transactionId: transactionId, startMs: now, expiresMs: expires,
                          regularPriceMilliunits: regular, offer: nil)
        let payload = TransactionFactory.subscriptionPeriod(
            chain: chain, app: app, product: product, transactionId: transactionId, purchaseMs: now,
            expiresMs: expires, priceMilliunits: regular, reason: .purchase, offer: nil)
        let record = try store(payload, kind: .autoRenewable, customer: key.customer, in: &batch)
        store(chain, in: &batch)
        emit(.didChangeRenewalPref, PlanChange.notificationSubtype(immediate: true), chain: chain, key: key,
             transactionId: record.id, atMs: now, in: &batch)
        try shareWithFamily(record, product: product, app: app, in: &batch)
        return WorldPurchase(status: .purchased, transaction: record, chain: chains[chain.originalTransactionId], payload: payload)
    }

    /// When the first period under an offer ends, at this world's rate (`OfferPeriod`, the rule).
    func offerEnd(start: Int64, offer: CatalogOffer) -> Int64 {
        OfferPeriod.end(startingAt: start, offer: offer, rate: rate)
    }
}

extension World {
    /// The chain's newest transaction, read before the rules run so a plan change can mark it
    /// upgraded without waiting mid-decision. Re-read if a renewal replaced it meanwhile.
    func latestTransactionOfChain(for product: CatalogProduct, key: CustomerKey) async throws -> TransactionRecord? {
        guard let group = product.subscription?.groupID else { return nil }
        let chainKey = ChainKey(bundleId: key.bundleId, customer: key.customer, groupId: group)
        for _ in 0..<3 {
            guard let latestId = chain(chainKey)?.latestTransactionId else { return nil }
            let record = try await transactionRecord(latestId)
            if chain(chainKey)?.latestTransactionId == latestId { return record }
        }
        return nil
    }
}
