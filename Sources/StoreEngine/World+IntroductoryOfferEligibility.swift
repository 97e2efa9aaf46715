import Foundation
import StoreModel
import StoreSigning
import StoreStorage

extension World {
    /// A purchase carrying the developer's signed introductory-offer eligibility
    /// (`introductoryOfferEligibility(compactJWS:)`), checked as Apple does before the purchase:
    /// signed by an In-App Purchase key of the app in this world (`kid`), for this app (`bid`,
    /// `iss`), audience `introductory-offer-eligibility`, issued within the last 24 hours on real
    /// time, for this product, with a `transactionId` of this customer (any transaction, or the
    /// app transaction), and a nonce used once. Its `allowIntroductoryOffer` then decides whether
    /// the product's introductory offer applies. A bad one is `invalidOfferSignature` (or
    /// `missingOfferParameters`), which StoreKit shows as `Product.PurchaseError`.
    func purchaseWithIntroductoryEligibility(
        _ request: PurchaseRequest, jws: String, offer requested: PurchaseOfferRequest?
    ) async throws -> WorldPurchase {
        try await catchUp()
        let app = try app(request.bundleId)
        guard let product = app.catalog.product(request.productId) else {
            throw StoreError.productUnavailable("\(request.productId) is not a product of \(app.bundleId)")
        }
        guard product.kind == .autoRenewable else {
            throw OfferError.invalidOfferIdentifier("\(product.id) is not an auto-renewable subscription; introductory offers apply to subscriptions only")
        }
        try AppStore.checkCustomerName(request.customer)
        let key = CustomerKey(bundleId: app.bundleId, customer: request.customer)
        _ = try await history(key)

        guard let keyId = PromotionalOfferV2Signature.keyId(of: jws) else {
            throw OfferError.invalidOfferSignature("introductoryOfferEligibility is not a compact JWS with a kid header")
        }
        let apiKey = try await inAppPurchaseKey(keyId, app: app)
        let claims: PromotionalOfferV2Signature.Claims
        do {
            claims = try PromotionalOfferV2Signature.verify(jws, publicKeyPEM: apiKey.publicKeyPEM)
        } catch {
            throw OfferError.invalidOfferSignature("the introductory offer eligibility JWS does not verify with key \(keyId) (\(error))")
        }
        let checked = try IntroductoryOfferEligibilityRules.check(
            claims, bundleId: app.bundleId, issuerId: apiKey.issuerId, productId: product.id, realNowMs: env.realNowMs())
        guard try await belongsToCustomer(checked.transactionId, key: key) else {
            throw OfferError.invalidOfferSignature("the JWS transactionId \(checked.transactionId) is not a transaction of \(request.customer)")
        }

        let token = "nonce\u{1F}\(checked.nonce)"
        guard claim(token) else { throw OfferError.invalidOfferSignature("the nonce \(checked.nonce) was already used") }
        defer { release(token) }
        if try await env.database.worldRecord(world: id, kind: Self.nonceKind, key: checked.nonce) != nil {
            throw OfferError.invalidOfferSignature("the nonce \(checked.nonce) was already used")
        }

        var decided = request
        decided.introductoryOfferEligibilityJWS = nil
        decided.introductoryOfferAllowed = checked.allow
        let result = try await purchase(decided, offer: requested)
        var batch = WriteBatch()
        batch.worldRecords.append(WorldRecord(world: id, kind: Self.nonceKind, key: checked.nonce, value: "{\"usedMs\":\(nowMs())}"))
        try await commit(batch)
        return result
    }
}
