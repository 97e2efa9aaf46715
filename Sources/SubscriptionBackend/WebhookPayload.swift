import Foundation

/// The JSON body of a webhook: one event, with what a receiver needs without calling back.
/// `eventTimestampMs` is the store's clock (when the change happened there), in milliseconds.
public struct WebhookPayload: Codable, Sendable, Equatable {
    public var id: String
    public var type: String
    public var appUserId: String?
    public var bundleId: String
    public var environment: String
    public var entitlementIds: [String]
    public var productId: String
    public var transactionId: String?
    public var originalTransactionId: String?
    /// In the currency's units (9.99); `priceMilliunits` is Apple's exact integer.
    public var price: Double?
    public var priceMilliunits: Int64?
    public var currency: String?
    public var periodType: String
    public var ownershipType: String?
    public var eventTimestampMs: Int64

    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// Slack's incoming-webhook format: one readable line.
    func slackText() -> String {
        var line = "\(type): \(appUserId ?? "an unlinked customer") · \(productId)"
        if let price, let currency { line += " · \(String(format: "%.2f", price)) \(currency)" }
        line += " · \(environment)"
        return line
    }
}
