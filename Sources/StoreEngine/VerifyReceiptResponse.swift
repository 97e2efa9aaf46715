import Foundation
import StoreModel
import StoreSigning

/// Apple's `verifyReceipt` `responseBody`: snake-case names, string-typed numbers and dates
/// (`…_date` "2013-08-01 07:00:00 Etc/GMT", `…_date_ms` a string of milliseconds, `…_date_pst` in
/// America/Los_Angeles), as Apple's App Store Receipts documentation gives them.
public struct VerifyReceiptResponse: Encodable, Sendable {
    /// Apple's `status`: 0 when valid, else a 21xxx code (`AppStore.ReceiptStatus`).
    public var status: Int
    /// `Sandbox` or `Production`: the environment of the receipt's app.
    public var environment: String?
    /// The receipt that was sent, decoded; nil unless `status` is 0.
    public var receipt: Receipt?
    /// `latest_receipt`: a fresh receipt with the customer's current purchases, base64; only for
    /// receipts with auto-renewable subscriptions.
    public var latestReceipt: String?
    /// `latest_receipt_info`: the customer's transactions in the app, oldest first, finished
    /// consumables left out.
    public var latestReceiptInfo: [Transaction]?
    /// `pending_renewal_info`: one entry per subscription, with its renewal state.
    public var pendingRenewalInfo: [PendingRenewal]?
    /// `is-retryable`: true with status 21100 when the store failed while reading the customer's data.
    public var isRetryable: Bool?

    enum CodingKeys: String, CodingKey {
        case status, environment, receipt, latestReceipt = "latest_receipt", latestReceiptInfo = "latest_receipt_info"
        case pendingRenewalInfo = "pending_renewal_info", isRetryable = "is-retryable"
    }

    init(status: Int, environment: String? = nil, isRetryable: Bool? = nil) {
        self.status = status
        self.environment = environment
        self.isRetryable = isRetryable
    }

    /// `responseBody.Receipt`: the receipt that was sent, decoded.
    public struct Receipt: Encodable, Sendable {
        var receiptType: String
        var adamId: Int64
        var appItemId: Int64
        var bundleId: String
        var applicationVersion: String
        var downloadId: Int64
        var versionExternalIdentifier: Int64
        var receiptCreation: Dates
        var request: Dates
        var originalPurchase: Dates?
        var originalApplicationVersion: String
        var inApp: [Transaction]

        init(_ receipt: AppReceipt, app: StoreApp, requestMs: Int64) {
            let production = app.environment == .production
            receiptType = production ? "Production" : "ProductionSandbox"
            adamId = production ? app.appAppleId : 0
            appItemId = production ? app.appAppleId : 0
            bundleId = receipt.bundleId
            applicationVersion = receipt.applicationVersion
            downloadId = 0
            versionExternalIdentifier = 0
            receiptCreation = Dates(receipt.creationDate)
            request = Dates(requestMs)
            originalPurchase = receipt.originalPurchaseDate.map(Dates.init)
            originalApplicationVersion = receipt.originalApplicationVersion
            inApp = receipt.inApp.map(Transaction.init)
        }

        enum CodingKeys: String, CodingKey {
            case receiptType = "receipt_type", adamId = "adam_id", appItemId = "app_item_id", bundleId = "bundle_id"
            case applicationVersion = "application_version", downloadId = "download_id"
            case versionExternalIdentifier = "version_external_identifier"
            case originalApplicationVersion = "original_application_version", inApp = "in_app"
        }

        /// Writes the receipt's fields under Apple's snake-case keys, each date in its three spellings.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(receiptType, forKey: .receiptType)
            try container.encode(adamId, forKey: .adamId)
            try container.encode(appItemId, forKey: .appItemId)
            try container.encode(bundleId, forKey: .bundleId)
            try container.encode(applicationVersion, forKey: .applicationVersion)
            try container.encode(downloadId, forKey: .downloadId)
            try container.encode(versionExternalIdentifier, forKey: .versionExternalIdentifier)
            try receiptCreation.encode(as: "receipt_creation_date", to: encoder)
            try request.encode(as: "request_date", to: encoder)
            try originalPurchase?.encode(as: "original_purchase_date", to: encoder)
            try container.encode(originalApplicationVersion, forKey: .originalApplicationVersion)
            try container.encode(inApp, forKey: .inApp)
        }
    }

    /// An entry of `in_app` or `latest_receipt_info`.
    public struct Transaction: Encodable, Sendable {
        var fields: [String: String] = [:]
        var dates: [String: Dates] = [:]

        init(_ purchase: InAppReceipt) {
            fields["quantity"] = String(purchase.quantity)
            fields["product_id"] = purchase.productId
            fields["transaction_id"] = purchase.transactionId
            fields["original_transaction_id"] = purchase.originalTransactionId
            fields["web_order_line_item_id"] = purchase.webOrderLineItemId.map(String.init)
            dates["purchase_date"] = Dates(purchase.purchaseDate)
            dates["original_purchase_date"] = Dates(purchase.originalPurchaseDate)
            dates["expires_date"] = purchase.expiresDate.map(Dates.init)
            dates["cancellation_date"] = purchase.cancellationDate.map(Dates.init)
        }

        init(_ payload: TransactionPayload) {
            self.init(InAppReceipt(
                quantity: payload.quantity, productId: payload.productId, transactionId: payload.transactionId,
                originalTransactionId: payload.originalTransactionId, purchaseDate: payload.purchaseDate,
                originalPurchaseDate: payload.originalPurchaseDate, expiresDate: payload.expiresDate,
                webOrderLineItemId: payload.webOrderLineItemId.flatMap { Int64($0) }, cancellationDate: payload.revocationDate))
            let introductory = payload.offerType == .introductory
            fields["is_trial_period"] = String(introductory && payload.offerDiscountType == .freeTrial)
            fields["is_in_intro_offer_period"] = String(introductory && payload.offerDiscountType != .freeTrial)
            fields["in_app_ownership_type"] = payload.inAppOwnershipType.rawValue
            fields["subscription_group_identifier"] = payload.subscriptionGroupIdentifier
            fields["cancellation_reason"] = payload.revocationReason.map { String($0.rawValue) }
            fields["is_upgraded"] = payload.isUpgraded == true ? "true" : nil
            if payload.offerType == .promotional { fields["promotional_offer_id"] = payload.offerIdentifier }
            if payload.offerType == .offerCode { fields["offer_code_ref_name"] = payload.offerIdentifier }
        }

        /// Writes the entry's string fields and its dates in Apple's three spellings.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            for (name, value) in fields { try container.encode(value, forKey: DynamicKey(name)) }
            for (name, date) in dates { try date.encode(as: name, to: encoder) }
        }
    }

    /// An entry of `pending_renewal_info`.
    public struct PendingRenewal: Encodable, Sendable {
        var fields: [String: String] = [:]
        var gracePeriodExpires: Dates?

        init(_ info: RenewalInfoPayload) {
            fields["auto_renew_product_id"] = info.autoRenewProductId
            fields["auto_renew_status"] = String(info.autoRenewStatus.rawValue)
            fields["original_transaction_id"] = info.originalTransactionId
            fields["product_id"] = info.productId
            fields["expiration_intent"] = info.expirationIntent.map { String($0.rawValue) }
            fields["is_in_billing_retry_period"] = info.isInBillingRetryPeriod.map { $0 ? "1" : "0" }
            fields["price_increase_status"] = info.priceIncreaseStatus.map { String($0.rawValue) }
            if info.offerType == .promotional { fields["promotional_offer_id"] = info.offerIdentifier }
            if info.offerType == .offerCode { fields["offer_code_ref_name"] = info.offerIdentifier }
            gracePeriodExpires = info.gracePeriodExpiresDate.map(Dates.init)
        }

        /// Writes the entry's string fields and, in a grace period, `grace_period_expires_date`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            for (name, value) in fields { try container.encode(value, forKey: DynamicKey(name)) }
            try gracePeriodExpires?.encode(as: "grace_period_expires_date", to: encoder)
        }
    }

    /// One date in Apple's three spellings.
    struct Dates: Sendable {
        var ms: Int64
        init(_ ms: Int64) { self.ms = ms }

        func encode(as name: String, to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicKey.self)
            try container.encode(Self.format(ms, zone: "Etc/GMT"), forKey: DynamicKey(name))
            try container.encode(String(ms), forKey: DynamicKey(name + "_ms"))
            try container.encode(Self.format(ms, zone: "America/Los_Angeles"), forKey: DynamicKey(name + "_pst"))
        }

        static func format(_ ms: Int64, zone: String) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: zone)
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) + " " + zone
        }
    }

    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
