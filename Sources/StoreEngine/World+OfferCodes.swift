import Foundation
import StoreModel
import StoreStorage

/// Offer codes of a world: made by the admin API for the catalog's code offers, redeemed by
/// customers (`AppStore.presentOfferCodeRedeemSheet` on a device), each with its redemption limit
/// and expiry in world time. Stored as world records of kind `offer_code`.
extension World {
    static let offerCodeKind = "offer_code"

    static func offerCodeKey(bundleId: String, code: String) -> String { "\(bundleId)\u{1F}\(code)" }

    func offerCodeRecord(_ code: OfferCode) throws -> WorldRecord {
        WorldRecord(world: id, kind: Self.offerCodeKind, key: Self.offerCodeKey(bundleId: code.bundleId, code: code.code),
                    value: String(decoding: try PayloadCoding.encoder.encode(code), as: UTF8.self))
    }

    /// Makes codes for a code offer: the custom `codes` given, or `count` generated one-time codes.
    func createOfferCodes(_ batchRequest: OfferCodeBatchRequest, bundleId: String) async throws -> [OfferCode] {
        let app = try app(bundleId)
        guard let (product, offer) = OfferCodeRules.codeOffer(named: batchRequest.offer, in: app.catalog) else {
            throw StoreError.productUnavailable("\(bundleId) has no code offer named \(batchRequest.offer) (a codeOffers referenceName or internalID)")
        }
        let custom = batchRequest.codes ?? []
        let count = batchRequest.count ?? 0
        guard custom.isEmpty != (count == 0) else {
            throw StoreError.unprocessable("give either codes (custom codes) or count (one-time codes), not both")
        }
        guard count >= 0, count <= OfferCodeRules.maxCodesPerRequest, custom.count <= OfferCodeRules.maxCustomCodesPerRequest else {
            throw StoreError.malformedRequest("at most \(OfferCodeRules.maxCodesPerRequest) one-time or \(OfferCodeRules.maxCustomCodesPerRequest) custom codes per request")
        }
        if let limit = batchRequest.maxRedemptions {
            guard limit > 0 else { throw StoreError.malformedRequest("maxRedemptions must be at least 1") }
            guard !custom.isEmpty else { throw StoreError.unprocessable("one-time codes are redeemed once; maxRedemptions is for custom codes") }
        }
        let now = nowMs()
        if let expires = batchRequest.expiresAt, expires <= now {
            throw StoreError.unprocessable("expiresAt (world time, ms) must be in the future; the world's time is \(now)")
        }
        let names: [String]
        if custom.isEmpty {
            names = OfferCodeRules.generate(count: count)
        } else {
            names = try custom.map { try OfferCodeRules.checkCustomCode($0) }
            guard Set(names).count == names.count else { throw StoreError.unprocessable("the codes repeat") }
            for name in names where try await offerCode(name, bundleId: bundleId) != nil {
                throw StoreError.invalidAction("offer code \(name) already exists for \(bundleId)")
            }
        }
        let codes = names.map {
            OfferCode(code: $0, kind: custom.isEmpty ? .oneTime : .custom, bundleId: bundleId, productId: product.id,
                      offerReferenceName: offer.referenceName, offerInternalID: offer.internalID,
                      maxRedemptions: custom.isEmpty ? 1 : batchRequest.maxRedemptions, redemptions: 0,
                      expiresMs: batchRequest.expiresAt, createdMs: now, redeemedBy: [])
        }
        var batch = WriteBatch()
        batch.worldRecords = try codes.map { try offerCodeRecord($0) }
        withOfferCodes { cache in
            for code in codes { cache[Self.offerCodeKey(bundleId: bundleId, code: code.code)] = code }
        }
        try await commit(batch)
        return codes
    }

    /// The app's codes with their redemption counts, oldest first.
    func offerCodes(bundleId: String) async throws -> [OfferCode] {
        _ = try app(bundleId)
        let stored = try await env.database.worldRecords(world: id, kind: Self.offerCodeKind).compactMap {
            try? PayloadCoding.decoder.decode(OfferCode.self, from: Data($0.value.utf8))
        }
        let cache = withOfferCodes { $0 }
        return stored.filter { $0.bundleId == bundleId }
            .map { cache[Self.offerCodeKey(bundleId: bundleId, code: $0.code)] ?? $0 }
            .sorted { ($0.createdMs, $0.code) < ($1.createdMs, $1.code) }
    }

    /// One code, the in-memory copy winning (it has the latest count). A code gone from the
    /// records (a reset world) is gone.
    func offerCode(_ code: String, bundleId: String) async throws -> OfferCode? {
        let key = Self.offerCodeKey(bundleId: bundleId, code: code)
        guard let record = try await env.database.worldRecord(world: id, kind: Self.offerCodeKind, key: key),
              let stored = try? PayloadCoding.decoder.decode(OfferCode.self, from: Data(record.value.utf8))
        else {
            withOfferCodes { $0[key] = nil }
            return nil
        }
        return withOfferCodes { cache in
            if let known = cache[key], known.createdMs == stored.createdMs { return known }
            cache[key] = stored
            return stored
        }
    }

    /// Redeems a code as the redeem sheet does: a purchase of the code's product with its offer.
    func redeem(code raw: String, bundleId: String, customer: String) async throws -> WorldPurchase {
        try await catchUp()
        let app = try app(bundleId)
        if let error = settings.simulatedErrors["Offer Code Redeem Sheet"] {
            throw StoreError.simulated(api: "Offer Code Redeem Sheet", error: error)
        }
        let code = OfferCodeRules.normalize(raw)
        guard !code.isEmpty, let stored = try await offerCode(code, bundleId: bundleId) else {
            throw OfferError.invalidOfferCode("\(raw) is not an offer code of \(app.bundleId)")
        }
        var request = PurchaseRequest(bundleId: bundleId, productId: stored.productId, customer: customer)
        request.world = id
        return try await purchase(request, offer: .code(code))
    }

    /// Checks a code for this purchase and claims one of its remaining redemptions.
    func resolveCode(
        _ code: String, product: CatalogProduct, customer: String, history: [OwnedTransaction], chainKey: ChainKey
    ) async throws -> ResolvedOffer {
        guard let stored = try await offerCode(code, bundleId: chainKey.bundleId) else {
            throw OfferError.invalidOfferCode("\(code) is not an offer code of \(chainKey.bundleId)")
        }
        guard stored.productId == product.id else {
            throw OfferError.invalidOfferCode("offer code \(code) is for \(stored.productId), not \(product.id)")
        }
        guard let offer = product.subscription?.codeOffers.first(where: {
            ($0.referenceName != nil && $0.referenceName == stored.offerReferenceName) || ($0.internalID != nil && $0.internalID == stored.offerInternalID)
        }) else {
            throw OfferError.invalidOfferIdentifier("the code offer of \(code) is no longer in the catalog")
        }
        try OfferCodeRules.checkRedeemable(stored, customer: customer, nowMs: nowMs())
        try checkCodeEligibility(offer, groupId: chainKey.groupId, history: history, chainKey: chainKey)
        let key = Self.offerCodeKey(bundleId: chainKey.bundleId, code: code)
        let remaining = stored.maxRedemptions.map { $0 - stored.redemptions } ?? Int.max
        let codeClaim = "code\u{1F}\(key)"
        let customerClaim = "code\u{1F}\(key)\u{1F}\(customer)"
        guard claim(customerClaim) else { throw OfferError.ineligibleForOffer("\(customer) is already redeeming offer code \(code)") }
        guard claim(codeClaim, limit: remaining) else {
            release(customerClaim)
            throw OfferError.offerCodeRedemptionLimitReached("offer code \(code) has no redemptions left")
        }
        return ResolvedOffer(offer: offer, codeKey: key, claims: [codeClaim, customerClaim])
    }
}

/// What the admin API asks for when it makes codes (App Store Connect's "create offer codes").
public struct OfferCodeBatchRequest: Codable, Sendable {
    /// The code offer: its `referenceName` or `internalID` in the catalog.
    public var offer: String
    /// Custom codes to create.
    public var codes: [String]?
    /// How many one-time codes to generate.
    public var count: Int?
    /// For custom codes; nil = no limit.
    public var maxRedemptions: Int?
    /// World time, ms.
    public var expiresAt: Int64?

    /// A request for either custom `codes` or `count` generated one-time codes of `offer`.
    public init(offer: String, codes: [String]? = nil, count: Int? = nil, maxRedemptions: Int? = nil, expiresAt: Int64? = nil) {
        self.offer = offer
        self.codes = codes
        self.count = count
        self.maxRedemptions = maxRedemptions
        self.expiresAt = expiresAt
    }
}
