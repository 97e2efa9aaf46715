import Foundation
import StoreModel
import StoreSigning

/// The JSON body of a webhook: one event, with what a receiver needs without calling back.
/// `eventTimestampMs` is the store's clock (when the change happened there), in milliseconds.
public struct WebhookPayload: Codable, Sendable, Equatable {
    /// A UUID-shaped ID derived from the change itself, so a change learned twice is one event; also
    /// sent as `OpenStore-Event-Id`.
    public var id: String
    /// An `EventType` raw value (RevenueCat's names: `INITIAL_PURCHASE`, `RENEWAL`, …).
    public var type: String
    /// The customer the purchase is linked to; nil while no app user has claimed it.
    public var appUserId: String?
    /// The app the event is about.
    public var bundleId: String
    /// `Production` or `Sandbox`.
    public var environment: String
    /// The entitlement the product grants (configured name, else group ID, else product ID), as a list like RevenueCat's.
    public var entitlementIds: [String]
    /// The product concerned; for a product change, the product switched to.
    public var productId: String
    /// The transaction the event is about, else the subscription's latest; nil when none is known.
    public var transactionId: String?
    /// The subscription or purchase the event belongs to.
    public var originalTransactionId: String?
    /// In the currency's units (9.99); `priceMilliunits` is Apple's exact integer.
    public var price: Double?
    /// Apple's `price`: an exact integer of thousandths of the currency unit.
    public var priceMilliunits: Int64?
    /// ISO 4217 code of the price.
    public var currency: String?
    /// RevenueCat's period type: `trial`, `intro` or `normal`, from the transaction's offer.
    public var periodType: String
    /// `PURCHASED` or `FAMILY_SHARED` (Apple's `inAppOwnershipType`).
    public var ownershipType: String?
    /// When the change happened on the store's clock (a renewal's purchase date, a refund's revocation date).
    public var eventTimestampMs: Int64
    /// `APP_STORE` (RevenueCat's `store`): the store the purchase was made in (absent on events
    /// recorded before 2026-11-29).
    public var store: String? = nil
    /// Apple's `storefront` of the transaction: ISO 3166-1 alpha-3 (`USA`).
    public var storefront: String? = nil
    /// ISO 3166-1 alpha-2 (`US`, RevenueCat's `country_code`), from the storefront.
    public var countryCode: String? = nil
    /// The offer code's reference (`offerIdentifier`) when the transaction redeemed an offer code.
    public var offerCode: String? = nil
    /// Apple's commission as a fraction of `price`: 0.3, or 0.15 (Small Business Program, or an
    /// auto-renewable subscription after one year of paid service; `ProceedsRules`).
    public var commissionPercentage: Double? = nil
    /// `price` less the commission, before taxes (which Apple deducts where it collects them).
    public var proceeds: Double? = nil
    /// `proceeds` in milliunits.
    public var proceedsMilliunits: Int64? = nil
    /// For `PRICE_INCREASE`: `PENDING` (the subscriber has not consented yet) or `ACCEPTED`.
    public var priceIncreaseStatus: String? = nil
    /// For `REFUND_REQUESTED` and `CONSUMPTION_REQUEST_ANSWERED`: the request; absent otherwise.
    public var refundRequest: RefundRequest? = nil
    /// For `TRANSFER`: the customer the purchase moved from (RevenueCat's `transferred_from`).
    public var transferredFrom: [String]? = nil
    /// For `TRANSFER`: the customer it moved to (RevenueCat's `transferred_to`); also `appUserId`.
    public var transferredTo: [String]? = nil

    /// A refund request as the two refund-control events carry it.
    public struct RefundRequest: Codable, Sendable, Equatable {
        /// Apple's `consumptionRequestReason` (`UNINTENDED_PURCHASE`, `FULFILLMENT_ISSUE`, …).
        public var reason: String?
        /// The `refundPreference` the backend sent (`GRANT_FULL`, `DECLINE`); absent for data only or not yet answered.
        public var refundPreference: String?
        /// The last moment the backend starts an answer: the request's `signedDate` + 12 hours.
        public var deadlineMs: Int64
    }

    /// The transaction's storefront, offer code and proceeds, read from its signed payload (verified
    /// when it arrived) and its subscription's earlier transactions.
    mutating func describe(_ transaction: TransactionRow, chain: [TransactionRow], smallBusiness: Bool) {
        if let payload = JWSInspector.payload(of: transaction.jws),
           let fields = try? JSONDecoder().decode(TransactionFields.self, from: Data(payload)) {
            storefront = fields.storefront
            countryCode = fields.storefront.flatMap { Storefront.lookup($0) }.flatMap { Self.region(ofLocale: $0.locale) }
            if fields.offerType == 3 { offerCode = fields.offerIdentifier }
        }
        guard let price = transaction.price else { return }
        let commission = ProceedsRules.commission(transaction, chain: chain, smallBusiness: smallBusiness)
        let net = ProceedsRules.proceedsMilliunits(price: price, commission: commission)
        commissionPercentage = commission
        proceedsMilliunits = net
        proceeds = Double(net) / 1000
    }

    /// `US` of `en_US`: a storefront's main locale names its country.
    static func region(ofLocale locale: String) -> String? {
        guard let last = locale.split(separator: "_").last, last.count == 2, last.allSatisfy({ $0.isUppercase }) else { return nil }
        return String(last)
    }

    /// Names `standIn` wherever it named one of `names` (a deleted customer's events).
    mutating func replaceCustomer(_ names: Set<String>, with standIn: String) {
        let swap = { (id: String) in names.contains(id) ? standIn : id }
        appUserId = appUserId.map(swap)
        transferredFrom = transferredFrom?.map(swap)
        transferredTo = transferredTo?.map(swap)
    }

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
