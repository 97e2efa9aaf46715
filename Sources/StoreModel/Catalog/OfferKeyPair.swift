/// `subscriptionOffersKeyPair`: the local key for signing promotional-offer requests in tests.
public struct OfferKeyPair: Sendable, Equatable {
    /// The key ID apps pass as `keyID`.
    public var id: String
    /// Base64 PKCS#8 DER of a P-256 private key.
    public var privateKey: String

    /// A key pair as the file's `subscriptionOffersKeyPair` gives it.
    public init(id: String, privateKey: String) {
        self.id = id
        self.privateKey = privateKey
    }
}
