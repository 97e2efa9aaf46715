import Foundation
import StoreStorage

/// A StoreKit message (`Message` in StoreKit 2): something the App Store wants to show the
/// customer over the app, such as a price-increase consent sheet. Messages wait per customer and
/// app until the app comes to the foreground; a message counts as read only once it is displayed,
/// and a displayed message is never handed out again.
public struct StoreMessage: Codable, Sendable, Equatable {
    /// `Message.Reason`.
    public enum Reason: String, Codable, Sendable, CaseIterable {
        case priceIncreaseConsent, billingIssue, winBackOffer, generic
    }

    /// The message's ID (`Message.id`), which `displayMessage` takes.
    public var id: String
    /// Why the App Store shows it (`Message.reason`).
    public var reason: Reason
    /// The app it is shown over.
    public var bundleId: String
    /// The customer it is for.
    public var customer: String
    /// World time the App Store queued the message.
    public var createdDate: Int64
    /// World time the app displayed it; nil while it waits.
    public var displayedDate: Int64?
    /// The subscription the message is about, if any.
    public var originalTransactionId: String?
    /// The subscription's product, if the message is about one.
    public var productId: String?
    /// For a price-increase consent: the price the customer is asked to accept, in milliunits.
    public var newPrice: Int64?
    /// The currency of `newPrice`.
    public var currency: String?
    /// For a win-back message: the offers the customer may redeem, best first.
    public var winBackOfferIds: [String]?
    /// Orders messages queued in the same millisecond.
    public var seq: Int64

    static let recordKind = "storekit_message"

    func record(world: String) -> WorldRecord {
        WorldRecord(world: world, kind: Self.recordKind, key: id,
                    value: String(decoding: (try? PayloadCoding.encoder.encode(self)) ?? Data(), as: UTF8.self))
    }
}
