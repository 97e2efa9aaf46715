import Foundation

/// A promotional offer to apply to a payment, signed by the developer's server (the V1
/// signature over bundle ID, key ID, product, offer, application username, nonce and timestamp).
/// The store checks the signature as Apple does, and refuses a bad one with `SKError.invalidSignature`.
open class SKPaymentDiscount: NSObject, @unchecked Sendable {
    /// The promotional offer's identifier in the catalog.
    public let identifier: String
    /// The ID of the In-App Purchase key that signed.
    public let keyIdentifier: String
    /// Mirrors StoreKit's `SKPaymentDiscount.nonce`: the one-time UUID your server signed with the offer.
    public let nonce: UUID
    /// The signature, base64 (as the developer's server returns it).
    public let signature: String
    /// When it was signed, in milliseconds since 1970.
    public let timestamp: NSNumber

    /// Mirrors StoreKit's `SKPaymentDiscount(identifier:keyIdentifier:nonce:signature:timestamp:)`:
    /// the values your server returned when it signed the offer.
    public init(identifier: String, keyIdentifier: String, nonce: UUID, signature: String, timestamp: NSNumber) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
        super.init()
    }
}
