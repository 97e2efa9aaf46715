import Foundation
import StoreKitTypes
import StoreModel
import Testing

/// Every field of the signed payloads reaches every codec and mapping. A field is added in five or
/// six places (the payload, its hand-written `JSONWriter` encoding, the general JSON reader, the
/// client's one-pass scanner, StoreKit's public types); these tests fail, naming the field, when
/// one of them is forgotten. The samples set every field, and a test checks that they do (by
/// `Mirror`), so a new field fails here until it is in the sample and in each place.
@Suite struct PayloadFieldCoverageTests {
    static let transaction: TransactionPayload = {
        var payload = TransactionPayload(
            originalTransactionId: "2000000000000001", transactionId: "2000000000000009", webOrderLineItemId: "2000000000000010",
            bundleId: "com.example.app", productId: "plus.monthly", subscriptionGroupIdentifier: "21430000",
            purchaseDate: 1_760_000_000_000, originalPurchaseDate: 1_750_000_000_000, expiresDate: 1_762_592_000_000, quantity: 1,
            type: .autoRenewable, appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", inAppOwnershipType: .familyShared,
            signedDate: 1_760_000_000_500, revocationReason: .dueToIssue, revocationDate: 1_761_000_000_000, isUpgraded: true,
            offerType: .promotional, offerIdentifier: "loyal", environment: .sandbox, storefront: "FRA", storefrontId: "143442",
            transactionReason: .renewal, currency: "EUR", price: 4_990, offerDiscountType: .payAsYouGo,
            appTransactionId: "704289571234567890", offerPeriod: "P1M", revocationType: .refundProrated, revocationPercentage: 40_000)
        payload.billingPlanType = .monthly
        payload.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 3, commitmentExpiresDate: 1_790_000_000_000, commitmentPrice: 59_880, totalBillingPeriods: 12)
        return payload
    }()

    static let renewal: RenewalInfoPayload = {
        var payload = RenewalInfoPayload(
            originalTransactionId: "2000000000000001", autoRenewProductId: "plus.yearly", productId: "plus.monthly",
            autoRenewStatus: .on, expirationIntent: .billingError, isInBillingRetryPeriod: true,
            priceIncreaseStatus: .notResponded, gracePeriodExpiresDate: 1_763_000_000_000, offerType: .offerCode,
            offerIdentifier: "spring", offerDiscountType: .freeTrial, offerPeriod: "P1W", signedDate: 1_760_000_000_500,
            environment: .sandbox, recentSubscriptionStartDate: 1_750_000_000_000, renewalDate: 1_762_592_000_000,
            currency: "EUR", renewalPrice: 5_990, eligibleWinBackOfferIds: ["come-back"],
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", appTransactionId: "704289571234567890")
        payload.renewalBillingPlanType = .monthly
        payload.commitmentInfo = RenewalCommitmentInfo(
            commitmentAutoRenewProductId: "plus.monthly", commitmentAutoRenewStatus: .on,
            commitmentRenewalBillingPlanType: .monthly, commitmentRenewalDate: 1_790_000_000_000, commitmentRenewalPrice: 59_880)
        return payload
    }()

    static let appTransaction = AppTransactionPayload(
        receiptType: .sandbox, appAppleId: 1_234_567_890, bundleId: "com.example.app", applicationVersion: "2.1",
        versionExternalIdentifier: 8_123, receiptCreationDate: 1_760_000_000_000, requestDate: 1_760_000_000_100,
        originalPurchaseDate: 1_700_000_000_000, originalApplicationVersion: "1.0", deviceVerification: "ZGV2aWNl",
        deviceVerificationNonce: "0f4d2a4e-5b1c-4c5e-8a86-3d7b1a2f9c10", preorderDate: 1_690_000_000_000,
        appTransactionId: "704289571234567890", originalPlatform: .visionOS, signedDate: 1_760_000_000_200)

    /// The stored properties of a value, by name, with whether each is nil.
    static func fields(_ value: Any) -> [(name: String, isNil: Bool)] {
        Mirror(reflecting: value).children.compactMap { child in
            guard let name = child.label else { return nil }
            let inner = Mirror(reflecting: child.value)
            return (name, inner.displayStyle == .optional && inner.children.isEmpty)
        }
    }

    static func jsonKeys(_ bytes: [UInt8]) throws -> Set<String> {
        Set(try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]).keys)
    }

    @Test func theSamplesSetEveryField() {
        for (name, sample) in [("TransactionPayload", Self.transaction as Any), ("RenewalInfoPayload", Self.renewal), ("AppTransactionPayload", Self.appTransaction)] {
            for field in Self.fields(sample) {
                #expect(!field.isNil, "\(name).\(field.name) is nil in the sample: set it here, then give it to every codec and mapping")
            }
        }
    }

    @Test func theWriterWritesEveryFieldAndTheReadersReadThemBack() throws {
        let transaction = Self.transaction, renewal = Self.renewal, app = Self.appTransaction
        for (name, fields, bytes) in [
            ("TransactionPayload", Self.fields(transaction), transaction.jsonBytes),
            ("RenewalInfoPayload", Self.fields(renewal), renewal.jsonBytes),
            ("AppTransactionPayload", Self.fields(app), app.jsonBytes),
        ] {
            let written = try Self.jsonKeys(bytes)
            for field in fields { #expect(written.contains(field.name), "\(name).\(field.name) is not written by its JSONWriter encoding (WireCoding.swift)") }
            for key in written where !fields.contains(where: { $0.name == key }) { Issue.record("\(name)'s encoding writes \(key), which is no field") }
        }
        #expect(try JSONDecoder().decode(TransactionPayload.self, from: Data(transaction.jsonBytes)) == transaction)
        #expect(try TransactionPayload(json: transaction.jsonBytes) == transaction, "TransactionPayload(json:) (WireCoding.swift) loses a field")
        #expect(try JSONDecoder().decode(RenewalInfoPayload.self, from: Data(renewal.jsonBytes)) == renewal)
        #expect(try JSONDecoder().decode(AppTransactionPayload.self, from: Data(app.jsonBytes)) == app)
    }

    /// The client's one-pass reader knows every flat field (a nested one makes it hand over to
    /// the general reader, which is correct but slow).
    @Test func theClientsScannerReadsEveryFlatField() throws {
        var flat = Self.transaction
        flat.commitmentInfo = nil
        let scanned = TransactionPayloadScanner.decode(flat.jsonBytes)
        #expect(scanned == flat, "TransactionPayloadScanner gave up or lost a field; it knows: \(scanned.map { Self.fields($0).filter { !$0.isNil }.map(\.name) } ?? [])")
        // With the nested member it hands over rather than lose it.
        #expect(TransactionPayloadScanner.decode(Self.transaction.jsonBytes) == nil)
    }

    /// Each payload field reaches StoreKit's public `Transaction`: the table names where, and a
    /// field missing from it fails.
    @Test func everyTransactionFieldReachesStoreKitsTransaction() {
        let t = Transaction(payload: Self.transaction, jws: "h.p.s")
        let reaches: [String: Bool] = [
            "originalTransactionId": t.originalID == 2_000_000_000_000_001,
            "transactionId": t.id == 2_000_000_000_000_009,
            "webOrderLineItemId": t.webOrderLineItemID == "2000000000000010",
            "bundleId": t.appBundleID == "com.example.app",
            "productId": t.productID == "plus.monthly",
            "subscriptionGroupIdentifier": t.subscriptionGroupID == "21430000",
            "purchaseDate": t.purchaseDate == Date(timeIntervalSince1970: 1_760_000_000),
            "originalPurchaseDate": t.originalPurchaseDate == Date(timeIntervalSince1970: 1_750_000_000),
            "expiresDate": t.expirationDate == Date(timeIntervalSince1970: 1_762_592_000),
            "quantity": t.purchasedQuantity == 1,
            "type": t.productType == .autoRenewable,
            "appAccountToken": t.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"),
            "inAppOwnershipType": t.ownershipType == .familyShared,
            "signedDate": t.signedDate == Date(timeIntervalSince1970: 1_760_000_000.5),
            "revocationReason": t.revocationReason == .developerIssue,
            "revocationDate": t.revocationDate == Date(timeIntervalSince1970: 1_761_000_000),
            "isUpgraded": t.isUpgraded,
            "offerType": t.offer?.type == .promotional,
            "offerIdentifier": t.offer?.id == "loyal",
            "environment": t.environment == .sandbox,
            "storefront": t.storefront.countryCode == "FRA",
            "storefrontId": t.storefront.id == "143442",
            "transactionReason": t.reason == .renewal,
            "currency": t.currency?.identifier == "EUR",
            "price": t.price == Decimal(string: "4.99"),
            "offerDiscountType": t.offer?.paymentMode == .payAsYouGo,
            "appTransactionId": t.appTransactionID == "704289571234567890",
            "offerPeriod": t.offer?.period == .monthly,
            "revocationType": t.revocationType != nil,
            "revocationPercentage": t.revocationPercentage == Decimal(40),
            "billingPlanType": t.billingPlanType != nil,
            "commitmentInfo": t.commitmentInfo?.billingPeriodNumber == 3 && t.commitmentInfo?.totalBillingPeriods == 12,
        ]
        for field in Self.fields(Self.transaction) {
            guard let reached = reaches[field.name] else {
                Issue.record("TransactionPayload.\(field.name) has no StoreKit Transaction counterpart in this table: map it (SignedPayloads.swift) and add it here")
                continue
            }
            #expect(reached, "TransactionPayload.\(field.name) does not reach StoreKit's Transaction as given")
        }
    }

    /// The same for `Product.SubscriptionInfo.RenewalInfo`.
    @Test func everyRenewalFieldReachesStoreKitsRenewalInfo() {
        let r = Product.SubscriptionInfo.RenewalInfo(payload: Self.renewal, jws: "h.p.s")
        let reaches: [String: Bool] = [
            "originalTransactionId": r.originalTransactionID == 2_000_000_000_000_001,
            "autoRenewProductId": r.autoRenewPreference == "plus.yearly",
            "productId": r.currentProductID == "plus.monthly",
            "autoRenewStatus": r.willAutoRenew,
            "expirationIntent": r.expirationReason == .billingError,
            "isInBillingRetryPeriod": r.isInBillingRetry,
            "priceIncreaseStatus": r.priceIncreaseStatus == .pending,
            "gracePeriodExpiresDate": r.gracePeriodExpirationDate == Date(timeIntervalSince1970: 1_763_000_000),
            "offerType": r.offer?.type == .code,
            "offerIdentifier": r.offer?.id == "spring",
            "offerDiscountType": r.offer?.paymentMode == .freeTrial,
            "offerPeriod": r.offer?.period == .weekly,
            "signedDate": r.signedDate == Date(timeIntervalSince1970: 1_760_000_000.5),
            "environment": r.environment == .sandbox,
            "recentSubscriptionStartDate": r.recentSubscriptionStartDate == Date(timeIntervalSince1970: 1_750_000_000),
            "renewalDate": r.renewalDate == Date(timeIntervalSince1970: 1_762_592_000),
            "currency": r.currency?.identifier == "EUR",
            "renewalPrice": r.renewalPrice == Decimal(string: "5.99"),
            "eligibleWinBackOfferIds": r.eligibleWinBackOfferIDs == ["come-back"],
            "appAccountToken": r.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"),
            "appTransactionId": r.appTransactionID == "704289571234567890",
            "renewalBillingPlanType": r.renewalBillingPlanType != nil,
            "commitmentInfo": r.commitmentInfo != nil,
        ]
        for field in Self.fields(Self.renewal) {
            guard let reached = reaches[field.name] else {
                Issue.record("RenewalInfoPayload.\(field.name) has no StoreKit RenewalInfo counterpart in this table: map it (SignedPayloads.swift) and add it here")
                continue
            }
            #expect(reached, "RenewalInfoPayload.\(field.name) does not reach StoreKit's RenewalInfo as given")
        }
    }
}
