import Foundation
import StoreModel
import StoreSigning

/// Apple's rules for promotional offers: the offer must be one the product configures; the
/// request must be signed by the app's In-App Purchase key within 24 hours, with a nonce used
/// once; and the customer must be a current or past subscriber of the group (Apple: promotional
/// offers are "for existing or previous subscribers").
public enum PromotionalOfferRules {
    /// `SKPaymentDiscount.timestamp`: "keeps the payment discount active for 24 hours".
    public static let signatureLifetimeMs: Int64 = 24 * 60 * 60 * 1000
    /// Apple is silent on signatures dated in the future; we tolerate this much clock skew.
    public static let futureSkewMs: Int64 = 5 * 60 * 1000

    /// The product's promotional offer with this `offerID`.
    public static func offer(id: String, for product: CatalogProduct) -> CatalogOffer? {
        product.subscription?.promotionalOffers.first { $0.id == id }
    }

    /// Current or lapsed subscribers of the group qualify; people who never subscribed don't.
    public static func isEligible(groupId: String, history: [OwnedTransaction], hasChain: Bool) -> Bool {
        hasChain || !OfferEligibility.isEligibleForIntroOffer(groupId: groupId, history: history)
    }

    /// A signature older than 24 hours (or dated well into the future) is refused. Signatures are
    /// made by the developer's server on real time, so they are judged on real time, not world time.
    public static func checkTimestamp(_ timestampMs: Int64, realNowMs: Int64) throws(OfferError) {
        if realNowMs - timestampMs > signatureLifetimeMs {
            throw .invalidOfferSignature("the signature's timestamp is more than 24 hours old")
        }
        if timestampMs - realNowMs > futureSkewMs {
            throw .invalidOfferSignature("the signature's timestamp is in the future")
        }
    }

    /// The legacy signed request, with every field present and well formed.
    public struct CheckedV1: Sendable {
        /// The promotional offer's ID.
        public var offerId: String
        /// The ID of the key the developer signed with.
        public var keyId: String
        /// The one-time nonce the signature covers.
        public var nonce: UUID
        /// The signature, standard base64 of a DER ECDSA signature.
        public var signature: String
        /// When the developer's server signed, in ms since 1970 (real time).
        public var timestampMs: Int64
    }

    /// The request's fields, or `missingOfferParameters` naming those absent, or
    /// `invalidOfferSignature` when the nonce is not a UUID; the signature itself is checked elsewhere.
    public static func check(_ request: PurchaseOfferRequest.PromotionalOfferV1) throws(OfferError) -> CheckedV1 {
        var missing: [String] = []
        if request.offerID?.isEmpty ?? true { missing.append("offerID") }
        if request.keyID?.isEmpty ?? true { missing.append("keyID") }
        if request.nonce?.isEmpty ?? true { missing.append("nonce") }
        if request.signature?.isEmpty ?? true { missing.append("signature") }
        if request.timestamp == nil { missing.append("timestamp") }
        guard missing.isEmpty, let offerId = request.offerID, let keyId = request.keyID, let nonceText = request.nonce,
              let signature = request.signature, let timestamp = request.timestamp
        else { throw .missingOfferParameters("the promotional offer lacks \(missing.joined(separator: ", "))") }
        guard let nonce = UUID(uuidString: nonceText) else { throw .invalidOfferSignature("the nonce \(nonceText) is not a UUID") }
        return CheckedV1(offerId: offerId, keyId: keyId, nonce: nonce, signature: signature, timestampMs: timestamp)
    }

    /// The claims a JWS promotional offer must carry for this purchase; returns its nonce.
    public static func check(
        _ claims: PromotionalOfferV2Signature.Claims, bundleId: String, issuerId: String, productId: String,
        realNowMs: Int64
    ) throws(OfferError) -> (offerId: String, nonce: String) {
        guard claims.audiences.contains(PromotionalOfferV2Signature.audience) else {
            throw .invalidOfferSignature("the JWS audience must be \"\(PromotionalOfferV2Signature.audience)\"")
        }
        guard claims.bundleId == bundleId else { throw .invalidOfferSignature("the JWS bid is not \(bundleId)") }
        guard claims.issuer == issuerId else { throw .invalidOfferSignature("the JWS iss is not the key's issuer ID") }
        guard let offerId = claims.offerIdentifier, !offerId.isEmpty, let signedProduct = claims.productId,
              let nonce = claims.nonce, !nonce.isEmpty, let issuedAt = claims.issuedAt
        else { throw .missingOfferParameters("the JWS needs productId, offerIdentifier, nonce and iat claims") }
        guard signedProduct == productId else { throw .invalidOfferSignature("the JWS is for \(signedProduct), not \(productId)") }
        try checkTimestamp(Int64(issuedAt * 1000), realNowMs: realNowMs)
        return (offerId, nonce.lowercased())
    }
}
