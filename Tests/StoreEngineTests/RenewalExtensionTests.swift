import Foundation
@testable import StoreEngine
import StoreModel
import StoreTestSupport
import Testing

@Suite(.removesTemporaryFolders) struct RenewalExtensionTests {
    func order(_ days: Int64 = 30, reason: Int64 = 3, id: String? = "req-1") -> ExtendRenewalDateRequest {
        ExtendRenewalDateRequest(extendByDays: days, extendReasonCode: reason, requestIdentifier: id)
    }

    @Test func extensionMovesTheExpiryTheRenewalAndTheChangeNumber() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("ana")
        let expires = try #require(first.expiresDate)
        let before = try #require(try await store.database.transaction(id: Int64(first.transactionId)!))
        let seq = try await store.lastEventSeq()

        let response = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: first.transactionId, request: order(), bundleId: testBundle)
        #expect(response == ExtendRenewalDateResponse(
            originalTransactionId: first.transactionId, webOrderLineItemId: first.webOrderLineItemId!, success: true,
            effectiveDate: expires + 30 * dayMs))
        let after = try #require(try await store.database.transaction(id: Int64(first.transactionId)!))
        #expect(after.seq > before.seq && after.expiresMs == expires + 30 * dayMs && after.orderId == before.orderId)
        let status = try await store.status("ana")
        #expect(status.transaction.payload.expiresDate == expires + 30 * dayMs)
        #expect(status.renewalInfo.payload.renewalDate == expires + 30 * dayMs)
        #expect(try await store.eventNames(after: seq) == ["RENEWAL_EXTENDED"])

        // The same requestIdentifier again answers the same and extends nothing.
        #expect(try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: first.transactionId, request: order(), bundleId: testBundle) == response)
        #expect(try await store.status("ana").transaction.payload.expiresDate == expires + 30 * dayMs)

        // The renewal waits for the new date.
        try await store.advance(days: 366)
        #expect(try await store.status("ana").transaction.payload.transactionId == first.transactionId)
        try await store.advance(days: 30)
        let renewal = try await store.status("ana").transaction.payload
        #expect(renewal.transactionReason == .renewal && renewal.purchaseDate == expires + 30 * dayMs)
    }

    @Test func requestFieldsAreCheckedWithApplesCodes() async throws {
        let store = try await makeStore()
        let id = try await store.subscribe("ben").transactionId
        func code(_ request: ExtendRenewalDateRequest, _ original: String? = nil) async -> Int64? {
            await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: original ?? id, request: request, bundleId: testBundle) }
        }
        #expect(await code(order(0)) == 4_000_009)
        #expect(await code(order(91)) == 4_000_009)
        #expect(await code(ExtendRenewalDateRequest(extendByDays: nil, extendReasonCode: 0, requestIdentifier: "x")) == 4_000_009)
        #expect(await code(order(reason: 4)) == 4_000_010)
        #expect(await code(order(reason: -1)) == 4_000_010)
        #expect(await code(order(id: "")) == 4_000_011)
        #expect(await code(order(id: nil)) == 4_000_011)
        #expect(await code(order(id: String(repeating: "a", count: 129))) == 4_000_011)
        #expect(await code(order(), "abc") == 4_000_008)
        #expect(await code(order(), "123") == 4_040_005)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: id, request: order(), bundleId: "com.nope") } == 4_040_003)
        #expect(await code(order(90, id: String(repeating: "a", count: 128))) == nil)
        #expect(await code(order(1, reason: 0, id: "min")) == nil)

        let body = Data(#"{"extendByDays": 7, "extendReasonCode": 1, "requestIdentifier": "from-body"}"#.utf8)
        #expect(try ExtendRenewalDateRequest(body: body) == ExtendRenewalDateRequest(extendByDays: 7, extendReasonCode: 1, requestIdentifier: "from-body"))
        #expect(try ExtendRenewalDateRequest(body: Data(#"{"extendByDays": "7"}"#.utf8)).extendByDays == nil)
        #expect(throws: ServerAPIError.generalBadRequest) { try ExtendRenewalDateRequest(body: Data("[]".utf8)) }
    }

    @Test func onlyPaidActiveSubscriptionsTwiceAYear() async throws {
        let store = try await makeStore()
        // A free trial is not extendable.
        let trial = try await store.subscribe("cy", to: "test.monthly")
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: trial.transactionId, request: order(), bundleId: testBundle) } == 4_030_004)
        // A non-subscription.
        let seeds = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "cy")).transaction!.payload
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: seeds.transactionId, request: order(), bundleId: testBundle) } == 4_030_004)
        // Twice in 365 days, then 4030005; a year later again.
        let paid = try await store.subscribe("dee")
        for (index, expected) in ([nil, nil, 4_030_005] as [Int64?]).enumerated() {
            #expect(await apiCode {
                _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: paid.transactionId, request: order(10, id: "r\(index)"), bundleId: testBundle)
            } == expected)
        }
        try await store.advance(days: 300)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: paid.transactionId, request: order(10, id: "r3"), bundleId: testBundle) } == 4_030_005)
        try await store.advance(days: 66)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: paid.transactionId, request: order(10, id: "r4"), bundleId: testBundle) } == nil)
        // Expired, and billing retry, are not active.
        _ = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: paid.transactionId)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: paid.transactionId, request: order(id: "r5"), bundleId: testBundle) } == 4_030_004)
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(failRenewals: true, billingGracePeriod: false))
        let failing = try await store.subscribe("eli")
        try await store.advance(days: 366)
        #expect(try await store.status("eli").status == .billingRetry)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: failing.transactionId, request: order(), bundleId: testBundle) } == 4_030_004)
        // Only the original transaction ID names the subscription.
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(failRenewals: false))
        let renewed = try await store.subscribe("fin")
        try await store.advance(days: 366)
        let latest = try await store.status("fin").transaction.payload
        #expect(latest.transactionId != renewed.transactionId)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: latest.transactionId, request: order(), bundleId: testBundle) } == 4_040_005)
        let extended = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: renewed.transactionId, request: order(), bundleId: testBundle)
        #expect(extended.webOrderLineItemId == latest.webOrderLineItemId && extended.effectiveDate == latest.expiresDate! + 30 * dayMs)
    }

    @Test func massExtensionCountsEveryActiveSubscriberOfTheProduct() async throws {
        let store = try await makeStore()
        _ = try await store.world(AppStore.defaultWorld).saveCustomer("chloe", storefront: "FRA", locale: nil)
        let ana = try await store.subscribe("ana")
        let bob = try await store.subscribe("bob")
        let chloe = try await store.subscribe("chloe")
        _ = try await store.subscribe("dan", to: "test.monthly") // another product
        let eve = try await store.subscribe("eve")
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: eve.transactionId, enabled: false) // still active
        let max = try await store.subscribe("max")
        for id in ["a", "b"] {
            _ = try await store.world(AppStore.defaultWorld).extendRenewalDate(originalTransactionId: max.transactionId, request: order(5, id: id), bundleId: testBundle)
        }
        let gone = try await store.subscribe("gone")
        _ = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: gone.transactionId) // not an active subscriber
        let seq = try await store.lastEventSeq()

        let request = MassExtendRenewalDateRequest(extendByDays: 14, extendReasonCode: 3, requestIdentifier: "outage-1", productId: "test.yearly")
        #expect(try await store.world(AppStore.defaultWorld).extendRenewalDatesForAllActiveSubscribers(request, bundleId: testBundle).requestIdentifier == "outage-1")
        let status = try await store.world(AppStore.defaultWorld).massExtensionStatus(productId: "test.yearly", requestIdentifier: "outage-1", bundleId: testBundle)
        let now = try await store.world(AppStore.defaultWorld).nowMs()
        #expect(status.requestIdentifier == "outage-1" && status.complete && status.completeDate == now)
        #expect(status.succeededCount == 4 && status.failedCount == 1)
        for (customer, first) in [("ana", ana), ("bob", bob), ("chloe", chloe), ("eve", eve)] {
            #expect(try await store.status(customer).transaction.payload.expiresDate == first.expiresDate! + 14 * dayMs, "\(customer)")
        }
        #expect(try await store.status("max").transaction.payload.expiresDate == max.expiresDate! + 10 * dayMs)
        let events = try await store.world(AppStore.defaultWorld).events(after: seq)
        #expect(events.filter { $0.type == "RENEWAL_EXTENDED" }.count == 4)
        let failure = try #require(events.first { $0.subtype == "FAILURE" })
        #expect(failure.type == "RENEWAL_EXTENSION" && failure.customer == "max" && failure.originalId == Int64(max.transactionId))
        let summary = try #require(events.last)
        #expect(summary.type == "RENEWAL_EXTENSION" && summary.subtype == "SUMMARY")
        #expect(summary.data == #"{"failedCount":1,"productId":"test.yearly","requestIdentifier":"outage-1","succeededCount":4}"#)

        // The same request again is not applied twice.
        _ = try await store.world(AppStore.defaultWorld).extendRenewalDatesForAllActiveSubscribers(request, bundleId: testBundle)
        #expect(try await store.status("ana").transaction.payload.expiresDate == ana.expiresDate! + 14 * dayMs)

        // Limited to storefronts: only the French subscriber.
        let french = MassExtendRenewalDateRequest(extendByDays: 1, extendReasonCode: 0, requestIdentifier: "fr", storefrontCountryCodes: ["FRA"], productId: "test.yearly")
        _ = try await store.world(AppStore.defaultWorld).extendRenewalDatesForAllActiveSubscribers(french, bundleId: testBundle)
        let frStatus = try await store.world(AppStore.defaultWorld).massExtensionStatus(productId: "test.yearly", requestIdentifier: "fr", bundleId: testBundle)
        #expect(frStatus.succeededCount == 1 && frStatus.failedCount == 0)
        #expect(try await store.status("chloe").transaction.payload.expiresDate == chloe.expiresDate! + 15 * dayMs)
        #expect(try await store.world(AppStore.defaultWorld).events().last?.data == #"{"failedCount":0,"productId":"test.yearly","requestIdentifier":"fr","storefrontCountryCodes":["FRA"],"succeededCount":1}"#)
    }

    @Test func massExtensionRequestsAreChecked() async throws {
        let store = try await makeStore()
        func code(_ request: MassExtendRenewalDateRequest) async -> Int64? {
            await apiCode { _ = try await store.world(AppStore.defaultWorld).extendRenewalDatesForAllActiveSubscribers(request, bundleId: testBundle) }
        }
        func request(days: Int64 = 1, reason: Int64 = 0, id: String = "m", storefronts: [String]? = nil, product: String? = "test.yearly") -> MassExtendRenewalDateRequest {
            MassExtendRenewalDateRequest(extendByDays: days, extendReasonCode: reason, requestIdentifier: id, storefrontCountryCodes: storefronts, productId: product)
        }
        #expect(await code(request(days: 91)) == 4_000_009)
        #expect(await code(request(reason: 9)) == 4_000_010)
        #expect(await code(request(id: "")) == 4_000_011)
        #expect(await code(request(product: nil)) == 4_000_023)
        #expect(await code(request(product: "test.seeds")) == 4_000_023)
        #expect(await code(request(storefronts: [])) == 4_000_027)
        #expect(await code(request(storefronts: ["USA", "XYZ"])) == 4_000_028)
        #expect(await code(request(storefronts: ["US"])) == 4_000_028)
        #expect(await code(request()) == nil)
        #expect(try await store.world(AppStore.defaultWorld).massExtensionStatus(productId: "test.yearly", requestIdentifier: "m", bundleId: testBundle).succeededCount == 0)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).massExtensionStatus(productId: "test.yearly", requestIdentifier: "unknown", bundleId: testBundle) } == 4_040_009)
        #expect(await apiCode { _ = try await store.world(AppStore.defaultWorld).massExtensionStatus(productId: "test.monthly", requestIdentifier: "m", bundleId: testBundle) } == 4_040_009)

        let body = Data(#"{"extendByDays": 3, "extendReasonCode": 2, "requestIdentifier": "b", "productId": "test.yearly", "storefrontCountryCodes": ["USA"]}"#.utf8)
        #expect(try MassExtendRenewalDateRequest(body: body) == MassExtendRenewalDateRequest(
            extendByDays: 3, extendReasonCode: 2, requestIdentifier: "b", storefrontCountryCodes: ["USA"], productId: "test.yearly"))
        #expect(throws: ServerAPIError(code: 4_000_028, message: RenewalExtensionRules.invalidStorefrontCountryCode.message)) {
            try MassExtendRenewalDateRequest(body: Data(#"{"storefrontCountryCodes": [1]}"#.utf8))
        }
    }
}
