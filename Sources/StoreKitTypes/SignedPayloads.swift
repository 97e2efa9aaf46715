import Foundation
import StoreModel

// Decoding the store's signed payloads (Apple's wire types, `StoreModel`) into StoreKit's
// value types. Dates are milliseconds since 1970 on the wire; prices are milliunits.

extension Decimal {
    /// Milliunits as an amount (4990 → 4.990). Built from the exponent: Decimal division costs
    /// microseconds, which matters when every transaction is decoded.
    package init(milliunits: Int64) {
        self.init(sign: milliunits < 0 ? .minus : .plus, exponent: -3, significand: Decimal(milliunits.magnitude))
    }
}

extension Date {
    package init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

extension Product.SubscriptionPeriod {
    /// From an ISO 8601 duration ("P1M", "P3D").
    package init?(iso8601: String) {
        guard let period = SubscriptionPeriod(iso8601: iso8601), let unit = Unit(rawValue: period.unit.rawValue) else { return nil }
        self.init(value: period.value, unit: unit)
    }
}

extension Transaction {
    /// Decodes a verified (or not) payload. Throws when required fields are missing or mistyped.
    package init(payloadJSON: [UInt8], jws: String) throws {
        let payload = try TransactionPayloadScanner.decode(payloadJSON) ?? TransactionPayload(json: payloadJSON)
        self.init(payload, json: Data(payloadJSON), jws: jws)
    }

    /// A transaction from Apple's wire payload (as the store signed it) and its JWS: how a view
    /// layer or server code that already holds the payload makes StoreKit's value.
    public init(payload: TransactionPayload, jws: String) {
        self.init(payload, json: Data(payload.jsonBytes), jws: jws)
    }

    package init(_ payload: TransactionPayload, json: Data, jws: String) {
        id = UInt64(payload.transactionId) ?? 0
        originalID = UInt64(payload.originalTransactionId) ?? 0
        webOrderLineItemID = payload.webOrderLineItemId
        productID = payload.productId
        productType = Self.productType(payload.type)
        subscriptionGroupID = payload.subscriptionGroupIdentifier
        appBundleID = payload.bundleId
        appTransactionID = payload.appTransactionId
        purchaseDate = Date(milliseconds: payload.purchaseDate)
        originalPurchaseDate = Date(milliseconds: payload.originalPurchaseDate)
        expirationDate = payload.expiresDate.map(Date.init(milliseconds:))
        purchasedQuantity = payload.quantity
        isUpgraded = payload.isUpgraded ?? false
        ownershipType = OwnershipType(rawValue: payload.inAppOwnershipType.rawValue)
        revocationDate = payload.revocationDate.map(Date.init(milliseconds:))
        revocationReason = payload.revocationReason.map { RevocationReason(rawValue: $0.rawValue) }
        appAccountToken = payload.appAccountToken.flatMap(UUID.init(uuidString:))
        environment = AppStore.Environment(rawValue: payload.environment.rawValue)
        reason = Reason(rawValue: payload.transactionReason.rawValue)
        let currency = Locale.Currency(payload.currency)
        storefront = Storefront(id: payload.storefrontId, countryCode: payload.storefront, currency: currency)
        offer = payload.offerType.map {
            Offer(id: payload.offerIdentifier, type: OfferType(rawValue: $0.rawValue),
                  paymentMode: payload.offerDiscountType.map { Offer.PaymentMode(rawValue: $0.rawValue) },
                  period: payload.offerPeriod.flatMap(Product.SubscriptionPeriod.init(iso8601:)))
        }
        price = Decimal(milliunits: payload.price)
        self.currency = currency
        signedDate = Date(milliseconds: payload.signedDate)
        revocationType = payload.revocationType.map { RevocationType(rawValue: $0.rawValue) }
        revocationPercentage = payload.revocationPercentage.map { Decimal(milliunits: Int64($0)) }
        billingPlanType = payload.billingPlanType.map { Product.SubscriptionInfo.BillingPlanType(rawValue: $0.rawValue) }
        commitmentInfo = payload.commitmentInfo.map {
            CommitmentInfo(billingPeriodNumber: UInt64(max($0.billingPeriodNumber, 0)),
                           totalBillingPeriods: UInt64(max($0.totalBillingPeriods, 0)),
                           expirationDate: Date(milliseconds: $0.commitmentExpiresDate), price: Decimal(milliunits: $0.commitmentPrice))
        }
        jsonRepresentation = json
        jwsRepresentation = jws
    }

    static func productType(_ type: TransactionType) -> Product.ProductType {
        switch type {
        case .autoRenewable: .autoRenewable
        case .nonConsumable: .nonConsumable
        case .consumable: .consumable
        case .nonRenewing: .nonRenewable
        }
    }
}

extension Product.SubscriptionInfo.RenewalInfo {
    package init(payloadJSON: [UInt8], jws: String) throws {
        self.init(payload: try JSONDecoder().decode(RenewalInfoPayload.self, from: Data(payloadJSON)), json: Data(payloadJSON), jws: jws)
    }

    /// Renewal info from Apple's wire payload and its JWS.
    public init(payload: RenewalInfoPayload, jws: String) {
        self.init(payload: payload, json: Data(payload.jsonBytes), jws: jws)
    }

    init(payload: RenewalInfoPayload, json: Data, jws: String) {
        originalTransactionID = UInt64(payload.originalTransactionId) ?? 0
        currentProductID = payload.productId
        willAutoRenew = payload.autoRenewStatus == .on
        autoRenewPreference = payload.autoRenewProductId
        expirationReason = payload.expirationIntent.map { ExpirationReason(rawValue: $0.rawValue) }
        isInBillingRetry = payload.isInBillingRetryPeriod ?? false
        gracePeriodExpirationDate = payload.gracePeriodExpiresDate.map(Date.init(milliseconds:))
        priceIncreaseStatus = switch payload.priceIncreaseStatus {
        case nil: .noIncreasePending
        case .notResponded: .pending
        case .consentedOrNotified: .agreed
        }
        offer = payload.offerType.map {
            Transaction.Offer(id: payload.offerIdentifier, type: Transaction.OfferType(rawValue: $0.rawValue),
                              paymentMode: payload.offerDiscountType.map { Transaction.Offer.PaymentMode(rawValue: $0.rawValue) },
                              period: payload.offerPeriod.flatMap(Product.SubscriptionPeriod.init(iso8601:)))
        }
        signedDate = Date(milliseconds: payload.signedDate)
        environment = AppStore.Environment(rawValue: payload.environment.rawValue)
        recentSubscriptionStartDate = payload.recentSubscriptionStartDate.map(Date.init(milliseconds:))
        renewalDate = payload.renewalDate.map(Date.init(milliseconds:))
        renewalPrice = payload.renewalPrice.map { Decimal(milliunits: $0) }
        currency = payload.currency.map { Locale.Currency($0) }
        eligibleWinBackOfferIDs = payload.eligibleWinBackOfferIds ?? []
        appAccountToken = payload.appAccountToken.flatMap(UUID.init(uuidString:))
        appTransactionID = payload.appTransactionId
        renewalBillingPlanType = payload.renewalBillingPlanType.map { Product.SubscriptionInfo.BillingPlanType(rawValue: $0.rawValue) }
        commitmentInfo = payload.commitmentInfo.map {
            CommitmentInfo(autoRenewProductID: $0.commitmentAutoRenewProductId, willAutoRenew: $0.commitmentAutoRenewStatus == .on,
                           renewalBillingPlanType: Product.SubscriptionInfo.BillingPlanType(rawValue: $0.commitmentRenewalBillingPlanType.rawValue),
                           renewalDate: Date(milliseconds: $0.commitmentRenewalDate), renewalPrice: Decimal(milliunits: $0.commitmentRenewalPrice))
        }
        jsonRepresentation = json
        jwsRepresentation = jws
    }

    /// The bundle ID is not in renewal info; the environment is.
    package static func environment(in payloadJSON: [UInt8]) -> String? {
        (try? JSONDecoder().decode(RenewalInfoPayload.self, from: Data(payloadJSON)))?.environment.rawValue
    }
}

extension AppTransaction {
    package init(payloadJSON: [UInt8], jws: String) throws {
        self.init(payload: try JSONDecoder().decode(AppTransactionPayload.self, from: Data(payloadJSON)), json: Data(payloadJSON), jws: jws)
    }

    /// An app transaction from Apple's wire payload and its JWS.
    public init(payload: AppTransactionPayload, jws: String) {
        self.init(payload: payload, json: Data(payload.jsonBytes), jws: jws)
    }

    init(payload: AppTransactionPayload, json: Data, jws: String) {
        appID = payload.appAppleId.map { UInt64(clamping: $0) }
        appVersionID = payload.versionExternalIdentifier.map { UInt64(clamping: $0) }
        appVersion = payload.applicationVersion
        bundleID = payload.bundleId
        environment = AppStore.Environment(rawValue: payload.receiptType.rawValue)
        originalAppVersion = payload.originalApplicationVersion
        originalPurchaseDate = Date(milliseconds: payload.originalPurchaseDate)
        preorderDate = payload.preorderDate.map(Date.init(milliseconds:))
        appTransactionID = payload.appTransactionId
        originalPlatform = AppStore.Platform(rawValue: payload.originalPlatform.rawValue)
        signedDate = Date(milliseconds: payload.signedDate ?? payload.receiptCreationDate)
        jsonRepresentation = json
        jwsRepresentation = jws
    }
}
