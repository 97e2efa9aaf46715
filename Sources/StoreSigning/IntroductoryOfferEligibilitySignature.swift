import Foundation

/// The developer's signed verdict on introductory-offer eligibility, for StoreKit's
/// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`: the JWS form of
/// "Generating JWS to sign App Store requests" with audience `introductory-offer-eligibility` and
/// the claims `productId`, `allowIntroductoryOffer` and `transactionId` (Apple's
/// `IntroductoryOfferEligibilitySignatureCreator`). Verified like a JWS promotional offer, with
/// the app's In-App Purchase key (`PromotionalOfferV2Signature.verify`).
public enum IntroductoryOfferEligibilitySignature {
    /// The `aud` claim that tells this JWS apart from a promotional-offer one signed the same way.
    public static let audience = "introductory-offer-eligibility"

    /// Signs like Apple's `IntroductoryOfferEligibilitySignatureCreator.createSignature` (for tests and tools).
    public static func sign(
        privateKeyP8: String, keyId: String, issuerId: String, bundleId: String, productId: String,
        allowIntroductoryOffer: Bool, transactionId: String, nonce: UUID = UUID(), issuedAt: Date
    ) throws -> String {
        try PromotionalOfferV2Signature.signJWT(claims: [
            "bid": .string(bundleId), "iss": .string(issuerId), "aud": .string(audience),
            "iat": .int(Int64(issuedAt.timeIntervalSince1970.rounded(.down))), "nonce": .string(nonce.uuidString.lowercased()),
            "productId": .string(productId), "allowIntroductoryOffer": .bool(allowIntroductoryOffer),
            "transactionId": .string(transactionId),
        ], privateKeyP8: privateKeyP8, keyId: keyId)
    }
}
