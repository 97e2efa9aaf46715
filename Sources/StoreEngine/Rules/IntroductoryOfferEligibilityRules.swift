import StoreSigning

/// The claims an introductory-offer eligibility JWS must carry for a purchase (Apple's
/// "Generating JWS to sign App Store requests": `aud` `introductory-offer-eligibility`, `bid`,
/// `iss`, `iat`, `nonce`, and `productId`, `allowIntroductoryOffer`, `transactionId`).
public enum IntroductoryOfferEligibilityRules {
    /// The verdict a valid JWS carries.
    public struct Checked: Sendable, Equatable {
        /// `allowIntroductoryOffer`: whether the purchase gets the introductory offer.
        public var allow: Bool
        /// The JWS's `nonce`, lowercased, so each verdict is used once.
        public var nonce: String
        /// The `transactionId` claim, which must be a transaction of the buying customer.
        public var transactionId: String
    }

    /// The verdict of a JWS whose signature was verified: refuses a wrong audience, bundle ID, issuer
    /// or product, missing claims, or an `iat` over 24 hours old or in the future.
    public static func check(
        _ claims: PromotionalOfferV2Signature.Claims, bundleId: String, issuerId: String, productId: String, realNowMs: Int64
    ) throws(OfferError) -> Checked {
        guard claims.audiences.contains(IntroductoryOfferEligibilitySignature.audience) else {
            throw .invalidOfferSignature("the JWS audience must be \"\(IntroductoryOfferEligibilitySignature.audience)\"")
        }
        guard claims.bundleId == bundleId else { throw .invalidOfferSignature("the JWS bid is not \(bundleId)") }
        guard claims.issuer == issuerId else { throw .invalidOfferSignature("the JWS iss is not the key's issuer ID") }
        guard let signedProduct = claims.productId, let allow = claims.allowIntroductoryOffer,
              let transactionId = claims.transactionId, !transactionId.isEmpty,
              let nonce = claims.nonce, !nonce.isEmpty, let issuedAt = claims.issuedAt
        else {
            throw .missingOfferParameters("the JWS needs productId, allowIntroductoryOffer, transactionId, nonce and iat claims")
        }
        guard signedProduct == productId else { throw .invalidOfferSignature("the JWS is for \(signedProduct), not \(productId)") }
        try PromotionalOfferRules.checkTimestamp(Int64(issuedAt * 1000), realNowMs: realNowMs)
        return Checked(allow: allow, nonce: nonce.lowercased(), transactionId: transactionId)
    }
}
