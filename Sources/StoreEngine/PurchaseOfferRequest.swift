import Foundation

/// The offer a purchase asks for, after StoreKit's `Product.PurchaseOption`s:
/// `promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`, `promotionalOffer(_:compactJWS:)`,
/// `winBackOffer(_:)`, the testing-only `promotionalOffer(id:)` and `codeOffer(referenceName:)`,
/// and an offer code typed into the redeem sheet.
public enum PurchaseOfferRequest: Sendable, Equatable {
    case promotional(PromotionalOfferV1)
    case promotionalJWS(String)
    /// `promotionalOffer(id:)`: StoreKit Testing only, no signature.
    case promotionalTesting(offerId: String)
    /// `codeOffer(referenceName:)`: StoreKit Testing only, no code.
    case codeTesting(referenceName: String)
    case code(String)
    case winBack(offerId: String)

    /// The legacy signed offer, as StoreKit 2's first promotional-offer option carries it.
    public struct PromotionalOfferV1: Sendable, Equatable, Codable {
        /// The promotional offer's ID in the product's catalog.
        public var offerID: String?
        /// The ID of the In-App Purchase key the developer signed with.
        public var keyID: String?
        /// A UUID; StoreKit wants it lowercase.
        public var nonce: String?
        /// Standard base64 of the DER ECDSA signature.
        public var signature: String?
        /// Milliseconds since 1970, when the developer's server signed.
        public var timestamp: Int64?
        /// The offer as the app passes it; the fields are checked when the purchase is made.
        public init(offerID: String?, keyID: String?, nonce: String?, signature: String?, timestamp: Int64?) {
            self.offerID = offerID
            self.keyID = keyID
            self.nonce = nonce
            self.signature = signature
            self.timestamp = timestamp
        }
    }

    /// Builds the request from a purchase body's optional fields: at most one offer per purchase,
    /// and the unsigned promotional form only when the request says it is a test.
    public static func from(
        promotionalOffer: PromotionalOfferV1? = nil, promotionalOfferJWS: String? = nil,
        promotionalOfferID: String? = nil, testing: Bool? = nil,
        codeOfferReferenceName: String? = nil, winBackOfferID: String? = nil
    ) throws(OfferError) -> PurchaseOfferRequest? {
        var found: [PurchaseOfferRequest] = []
        if let promotionalOffer { found.append(.promotional(promotionalOffer)) }
        if let promotionalOfferJWS { found.append(.promotionalJWS(promotionalOfferJWS)) }
        if let promotionalOfferID {
            guard testing == true else {
                throw .missingOfferParameters("promotionalOfferID alone is the testing-only promotionalOffer(id:); send \"testing\": true, or a signed promotionalOffer / promotionalOfferJWS")
            }
            found.append(.promotionalTesting(offerId: promotionalOfferID))
        }
        if let codeOfferReferenceName { found.append(.codeTesting(referenceName: codeOfferReferenceName)) }
        if let winBackOfferID { found.append(.winBack(offerId: winBackOfferID)) }
        guard found.count <= 1 else { throw .missingOfferParameters("a purchase takes at most one offer") }
        return found.first
    }
}
