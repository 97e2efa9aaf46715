import Foundation
import StoreModel
import StoreSigning
import StoreStorage

/// Purchases with a subscription offer: promotional offers (signed, or unsigned in tests), offer
/// codes and win-back offers. The offer is resolved and authenticated, the customer's eligibility
/// checked by Apple's rules, and then the purchase runs: a first subscription or a resubscription
/// through the ordinary purchase path (OFFER_REDEEMED INITIAL_BUY / RESUBSCRIBE), a current
/// subscriber's offer here (at the next renewal, or at once as an upgrade).
///
/// Offer purchases are never deferred by Ask to Buy or an interrupted purchase: a pending
/// purchase does not carry its offer, so it could only lose it.
extension World {
    static let nonceKind = "promotional_offer_nonce"

    /// What a resolved offer request came to.
    struct ResolvedOffer: Sendable {
        var offer: CatalogOffer
        /// A signature's nonce, recorded once the purchase succeeds.
        var nonce: String?
        /// An offer code to count as redeemed once the purchase succeeds.
        var codeKey: String?
        /// Claims to give back when the request ends.
        var claims: [String] = []
    }

    /// The one purchase path: the device API, the store pages, the Transaction Manager, Ask to Buy
    /// approvals, interrupted purchases resolved and offer codes all buy through here. Families
    /// are loaded first, so a purchase is shared with the buyer's family even right after a restart.
    /// `allowPending: false` completes a purchase that already waited (Ask to Buy, an issue).
    func purchase(_ request: PurchaseRequest, offer requested: PurchaseOfferRequest?, allowPending: Bool = true) async throws -> WorldPurchase {
        try await ensureFamiliesLoaded()
        if let jws = request.introductoryOfferEligibilityJWS {
            return try await purchaseWithIntroductoryEligibility(request, jws: jws, offer: requested)
        }
        guard let requested else {
            let result = try await decidePurchase(request, allowPending: allowPending)
            try await shareIfMissed(result)
            return result
        }
        try await catchUp()
        let app = try app(request.bundleId)
        guard let product = app.catalog.product(request.productId) else {
            throw StoreError.productUnavailable("\(request.productId) is not a product of \(app.bundleId)")
        }
        guard product.kind == .autoRenewable, let subscription = product.subscription else {
            throw OfferError.invalidOfferIdentifier("\(product.id) is not an auto-renewable subscription; offers apply to subscriptions only")
        }
        try AppStore.checkCustomerName(request.customer)
        let key = CustomerKey(bundleId: app.bundleId, customer: request.customer)
        _ = try await history(key)
        let chainKey = ChainKey(bundleId: app.bundleId, customer: request.customer, groupId: subscription.groupID)

        let resolved = try await resolve(requested, request: request, app: app, product: product, key: key, chainKey: chainKey)
        defer { for claim in resolved.claims { release(claim) } }

        let result: WorldPurchase
        if let chain = chain(chainKey), chain.state != .expired, chain.state != .revoked {
            result = try await redeemForSubscriber(request, app: app, product: product, offer: resolved.offer, chainKey: chainKey)
        } else {
            result = try await decidePurchase(request, offer: resolved.offer, allowPending: false)
            try await shareIfMissed(result)
        }
        try await recordRedemption(resolved, customer: request.customer)
        return result
    }

    /// Finds the offer, checks its signature or code, and the customer's eligibility.
    func resolve(
        _ requested: PurchaseOfferRequest, request: PurchaseRequest, app: StoreApp, product: CatalogProduct,
        key: CustomerKey, chainKey: ChainKey
    ) async throws -> ResolvedOffer {
        let groupId = chainKey.groupId
        let history = histories[key] ?? []
        switch requested {
        case .promotional(let fields):
            let checked = try PromotionalOfferRules.check(fields)
            let offer = try promotionalOffer(checked.offerId, product: product)
            let apiKey = try await inAppPurchaseKey(checked.keyId, app: app)
            try PromotionalOfferRules.checkTimestamp(checked.timestampMs, realNowMs: env.realNowMs())
            guard PromotionalOfferSignature.verify(
                signatureBase64: checked.signature, publicKeyPEM: apiKey.publicKeyPEM, bundleId: app.bundleId,
                keyId: checked.keyId, productId: product.id, offerId: checked.offerId,
                appAccountToken: request.appAccountToken ?? "", nonce: checked.nonce, timestamp: checked.timestampMs)
            else { throw OfferError.invalidOfferSignature("the signature does not match the offer, the key or the parameters") }
            try checkPromotionalEligibility(groupId: groupId, history: history, chainKey: chainKey)
            return try await claimNonce(checked.nonce.uuidString.lowercased(), for: offer)

        case .promotionalJWS(let jws):
            guard let keyId = PromotionalOfferV2Signature.keyId(of: jws) else {
                throw OfferError.invalidOfferSignature("promotionalOfferJWS is not a compact JWS with a kid header")
            }
            let apiKey = try await inAppPurchaseKey(keyId, app: app)
            let claims: PromotionalOfferV2Signature.Claims
            do {
                claims = try PromotionalOfferV2Signature.verify(jws, publicKeyPEM: apiKey.publicKeyPEM)
            } catch {
                throw OfferError.invalidOfferSignature("the JWS signature does not verify with key \(keyId) (\(error))")
            }
            let (offerId, nonce) = try PromotionalOfferRules.check(
                claims, bundleId: app.bundleId, issuerId: apiKey.issuerId, productId: product.id, realNowMs: env.realNowMs())
            let offer = try promotionalOffer(offerId, product: product)
            if let transactionId = claims.transactionId, !(try await belongsToCustomer(transactionId, key: key)) {
                throw OfferError.invalidOfferSignature("the JWS transactionId \(transactionId) is not a transaction of \(key.customer)")
            }
            try checkPromotionalEligibility(groupId: groupId, history: history, chainKey: chainKey)
            return try await claimNonce(nonce, for: offer)

        case .promotionalTesting(let offerId):
            let offer = try promotionalOffer(offerId, product: product)
            try checkPromotionalEligibility(groupId: groupId, history: history, chainKey: chainKey)
            return ResolvedOffer(offer: offer)

        case .codeTesting(let referenceName):
            guard let offer = OfferCodeRules.codeOffer(referenceName: referenceName, for: product) else {
                throw OfferError.invalidOfferIdentifier("\(product.id) has no code offer named \(referenceName)")
            }
            try checkCodeEligibility(offer, groupId: groupId, history: history, chainKey: chainKey)
            return ResolvedOffer(offer: offer)

        case .code(let code):
            return try await resolveCode(code, product: product, customer: key.customer, history: history, chainKey: chainKey)

        case .winBack(let offerId):
            guard let offer = WinBackEligibility.offer(id: offerId, for: product) else {
                throw OfferError.invalidOfferIdentifier("\(product.id) has no win-back offer \(offerId)")
            }
            guard WinBackEligibility.isEligible(offerId: offerId, chain: chain(chainKey), catalog: app.catalog) else {
                throw OfferError.ineligibleForOffer("win-back offers are for customers whose subscription in the group has expired")
            }
            return ResolvedOffer(offer: offer)
        }
    }

    func promotionalOffer(_ offerId: String, product: CatalogProduct) throws(OfferError) -> CatalogOffer {
        guard let offer = PromotionalOfferRules.offer(id: offerId, for: product) else {
            throw .invalidOfferIdentifier("\(product.id) has no promotional offer \(offerId)")
        }
        return offer
    }

    func checkPromotionalEligibility(groupId: String, history: [OwnedTransaction], chainKey: ChainKey) throws(OfferError) {
        guard PromotionalOfferRules.isEligible(groupId: groupId, history: history, hasChain: chain(chainKey) != nil) else {
            throw .ineligibleForOffer("promotional offers are for current or past subscribers of the group")
        }
    }

    func checkCodeEligibility(_ offer: CatalogOffer, groupId: String, history: [OwnedTransaction], chainKey: ChainKey) throws(OfferError) {
        let cohort = OfferCodeRules.cohort(groupId: groupId, chain: chain(chainKey), history: history)
        guard OfferCodeRules.isEligible(offer, cohort: cohort) else {
            throw .ineligibleForOffer("this offer is for \(offer.eligibility.joined(separator: ", ")) customers; this customer is \(cohort.rawValue)")
        }
    }

    /// The app's In-App Purchase key in this world (the keys the Server API registers).
    func inAppPurchaseKey(_ keyId: String, app: StoreApp) async throws -> APIKeyRecord {
        guard let key = try await env.database.apiKey(id: keyId), key.bundleId == app.bundleId, key.world == id else {
            throw OfferError.invalidOfferSignature("key \(keyId) is not a key of \(app.bundleId) in world \(id)")
        }
        return key
    }

    /// Whether an ID (transaction, original transaction or app transaction) is the customer's.
    func belongsToCustomer(_ transactionId: String, key: CustomerKey) async throws -> Bool {
        if appTransactions[key]?.appTransactionId == transactionId { return true }
        if let stored = try await env.database.appTransaction(world: id, bundleId: key.bundleId, customer: key.customer),
           stored.appTransactionId == transactionId { return true }
        guard let number = Int64(transactionId) else { return false }
        return (histories[key] ?? []).contains { $0.id == number || $0.originalId == number }
    }

    /// A nonce is good once: refused if stored, or held by a request still running.
    func claimNonce(_ nonce: String, for offer: CatalogOffer) async throws -> ResolvedOffer {
        let token = "nonce\u{1F}\(nonce)"
        guard claim(token) else { throw OfferError.invalidOfferSignature("the nonce \(nonce) was already used") }
        do {
            if try await env.database.worldRecord(world: id, kind: Self.nonceKind, key: nonce) != nil {
                throw OfferError.invalidOfferSignature("the nonce \(nonce) was already used")
            }
        } catch {
            release(token)
            throw error
        }
        return ResolvedOffer(offer: offer, nonce: nonce, claims: [token])
    }

    /// After a successful purchase: the nonce is spent, the code counted.
    func recordRedemption(_ resolved: ResolvedOffer, customer: String) async throws {
        var batch = WriteBatch()
        if let nonce = resolved.nonce {
            batch.worldRecords.append(WorldRecord(world: id, kind: Self.nonceKind, key: nonce, value: "{\"usedMs\":\(nowMs())}"))
        }
        if let codeKey = resolved.codeKey {
            let updated: OfferCode? = withOfferCodes { codes in
                guard var code = codes[codeKey] else { return nil }
                code.redemptions += 1
                code.redeemedBy.append(customer)
                codes[codeKey] = code
                return code
            }
            if let updated { batch.worldRecords.append(try offerCodeRecord(updated)) }
        }
        if !batch.isEmpty { try await commit(batch) }
    }

    /// A current subscriber's offer (the chain is active, in grace or in billing retry).
    func redeemForSubscriber(
        _ request: PurchaseRequest, app: StoreApp, product: CatalogProduct, offer: CatalogOffer, chainKey: ChainKey
    ) async throws -> WorldPurchase {
        if let error = settings.simulatedErrors["Purchase"] { throw StoreError.simulated(api: "Purchase", error: error) }
        let key = CustomerKey(bundleId: app.bundleId, customer: request.customer)
        let latest = try await latestTransactionOfChain(for: product, key: key)
        // From here on no suspension until the commit.
        guard var chain = chain(chainKey), chain.state != .expired, chain.state != .revoked else {
            let result = try await decidePurchase(request, offer: offer, allowPending: false)
            try await shareIfMissed(result)
            return result
        }
        guard let current = app.catalog.product(chain.productId) else { throw StoreError.productUnavailable(chain.productId) }
        let storefront = try AppStore.storefront(chain.storefront)
        let now = nowMs()
        var batch = WriteBatch()
        switch SubscriberOfferTiming.timing(current: current, requested: product) {
        case .nextRenewal:
            chain.offer = SubscriberOfferTiming.pendingOffer(offer, storefront: storefront)
            chain.autoRenewProductId = chain.productId
            if !chain.autoRenewEnabled {
                // Taking an offer for the next period means renewing into it.
                chain.autoRenewEnabled = true
                if chain.expirationIntent == .customerCancelled { chain.expirationIntent = nil }
            }
            store(chain, in: &batch)
            emit(.offerRedeemed, chain: chain, key: key, transactionId: chain.latestTransactionId, atMs: now, in: &batch)
            try await commit(batch)
            let shown = latest?.id == chain.latestTransactionId ? latest : nil
            return WorldPurchase(status: .purchased, transaction: shown, chain: chains[chain.originalTransactionId])

        case .immediateUpgrade:
            let transactionId = env.identifiers.nextId()
            let expires = offerEnd(start: now, offer: offer)
            if let latest, latest.id == chain.latestTransactionId {
                _ = try modify(latest, in: &batch) { payload, _ in payload.isUpgraded = true }
            }
            chain.beginPeriod(productId: product.id, transactionId: transactionId, startMs: now, expiresMs: expires,
                              regularPriceMilliunits: storefront.milliunits(product.price),
                              offer: TransactionFactory.activeOffer(offer, storefront: storefront))
            chain.schedule(.renewal, at: expires)
            let payload = TransactionFactory.subscriptionPeriod(
                chain: chain, app: app, product: product, transactionId: transactionId, purchaseMs: now,
                expiresMs: expires, priceMilliunits: chain.offer?.priceMilliunits ?? 0, reason: .purchase, offer: chain.offer)
            let record = try store(payload, kind: .autoRenewable, customer: key.customer, in: &batch)
            store(chain, in: &batch)
            emit(.offerRedeemed, .upgrade, chain: chain, key: key, transactionId: record.id, atMs: now, in: &batch)
            try shareWithFamily(record, product: product, app: app, in: &batch)
            try await commit(batch)
            return WorldPurchase(status: .purchased, transaction: record, chain: chains[chain.originalTransactionId])

        case .atRenewalInOtherProduct:
            throw OfferError.ineligibleForOffer(
                "an offer for \(product.id) would start at the next renewal in another plan (a downgrade or crossgrade); the store supports offers for the current plan or an upgrade")
        }
    }
}
