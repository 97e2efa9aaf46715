import Foundation
import StoreEngine
import StoreTestSupport
import StoreModel
import StoreSigning
import Testing

@Suite(.removesTemporaryFolders) struct PurchaseTests {
    @Test func consumablePurchaseCarriesApplesFields() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let token = "A1B2C3D4-0000-4000-8000-00000000ABCD"
        let outcome = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "alice", quantity: 3, appAccountToken: token))
        let t = outcome.transaction!.payload
        #expect(t.productId == "test.seeds")
        #expect(t.type == .consumable)
        #expect(t.quantity == 3)
        #expect(t.price == 990)
        #expect(t.currency == "USD")
        #expect(t.storefront == "USA" && t.storefrontId == "143441")
        #expect(t.appAccountToken == token.lowercased())
        #expect(t.transactionId == t.originalTransactionId)
        #expect(t.purchaseDate == (try await store.world(AppStore.defaultWorld).nowMs()))
        #expect(t.signedDate == t.purchaseDate)
        #expect(t.environment == .sandbox)
        #expect(t.transactionReason == .purchase)
        #expect(t.inAppOwnershipType == .purchased)
        #expect(t.expiresDate == nil && t.webOrderLineItemId == nil && t.offerType == nil)
        #expect(outcome.renewalInfo == nil)

        let appTransaction = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "alice")
        #expect(t.appTransactionId == appTransaction.payload.appTransactionId)
    }

    @Test func signedTransactionVerifiesAgainstTheRootAndMatchesThePayload() async throws {
        let store = try await makeStore()
        let outcome = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "alice"))
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        let decoded = try verifier.verifyAndDecode(TransactionPayload.self, from: outcome.transaction!.jws)
        #expect(decoded == outcome.transaction!.payload)
        #expect(decoded.type == .nonConsumable)
    }

    @Test func anOwnedNonConsumableCannotBeBoughtTwiceEvenConcurrently() async throws {
        let store = try await makeStore()
        // Each attempt's outcome: nil when it bought, else the store's refusal code. Only
        // `alreadyPurchased` counts as the expected refusal; any other error fails the test.
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "bob")) }
                }
            }
            var out: [String?] = []
            for await outcome in group { out.append(outcome) }
            return out
        }
        #expect(results.filter { $0 == nil }.count == 1, "\(results)")
        #expect(results.compactMap { $0 } == Array(repeating: "alreadyPurchased", count: 7), "\(results)")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "bob")) } == "alreadyPurchased")
        // Another customer may still buy it.
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "carol"))
    }

    @Test func firstSubscriptionGetsTheFreeTrialAndRenewalInfo() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let outcome = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "dana"))
        let t = outcome.transaction!.payload
        let now = Date(milliseconds: try await store.world(AppStore.defaultWorld).nowMs())
        #expect(t.type == .autoRenewable)
        #expect(t.subscriptionGroupIdentifier == "G1")
        #expect(t.offerType == .introductory)
        #expect(t.offerDiscountType == .freeTrial)
        #expect(t.offerPeriod == "P1W")
        #expect(t.price == 0)
        #expect(t.expiresDate == now.addingTimeInterval(7 * 86_400).milliseconds)
        #expect(t.webOrderLineItemId != nil && t.webOrderLineItemId != t.transactionId)

        let renewal = try #require(outcome.renewalInfo?.payload)
        #expect(renewal.originalTransactionId == t.originalTransactionId)
        #expect(renewal.autoRenewProductId == "test.monthly" && renewal.productId == "test.monthly")
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.renewalDate == t.expiresDate)
        #expect(renewal.renewalPrice == 4990 && renewal.currency == "USD")
        #expect(renewal.recentSubscriptionStartDate == t.purchaseDate)
        #expect(renewal.environment == .sandbox)
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        #expect(try verifier.verifyAndDecode(RenewalInfoPayload.self, from: outcome.renewalInfo!.jws) == renewal)
    }

    @Test func aSubscriptionWithoutOfferExpiresAfterOneCalendarPeriod() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_769_817_600)) // 2026-01-31
        let store = try await makeStore(clock: clock)
        let t = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.yearly", customer: "erin")).transaction!.payload
        #expect(t.offerType == nil && t.offerDiscountType == nil)
        #expect(t.price == 39990)
        #expect(t.expiresDate == Date(timeIntervalSince1970: 1_801_353_600).milliseconds) // 2027-01-31
    }

    @Test func badInputIsRefusedWithTheRightError() async throws {
        let store = try await makeStore()
        func code(_ request: PurchaseRequest) async -> String? {
            do { _ = try await store.world(AppStore.defaultWorld).purchase(request); return nil } catch let error as StoreError { return error.code } catch { return "other" }
        }
        #expect(await code(PurchaseRequest(bundleId: "com.nope", productId: "test.seeds", customer: "a")) == "appNotFound")
        #expect(await code(PurchaseRequest(bundleId: testBundle, productId: "nope", customer: "a")) == "productUnavailable")
        #expect(await code(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "a", quantity: 0)) == "invalidQuantity")
        #expect(await code(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "a", quantity: 11)) == "invalidQuantity")
        #expect(await code(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "a", quantity: 2)) == "invalidQuantity")
        #expect(await code(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "a", appAccountToken: "not-a-uuid")) == "invalidAppAccountToken")
        #expect(await code(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "")) == "malformedRequest")
    }

    /// A customer's locale is a locale identifier, the `Locale` pattern `/openapi.json` documents
    /// (found by the full-size schemathesis run: `<script>` was stored and echoed back).
    @Test func aCustomersLocaleMustBeALocaleIdentifier() async throws {
        let store = try await makeStore()
        for bad in ["<script>", "ll_al7ZUXr-ISlU2DqX*", "EN_us", "e", "en_", "en__US", ""] {
            await #expect(throws: StoreError.self, "\(bad)") { try await store.world(AppStore.defaultWorld).saveCustomer("loc", storefront: nil, locale: bad) }
        }
        #expect(try await store.world(AppStore.defaultWorld).customer("loc") == nil)  // nothing refused was stored
        for good in ["en_US", "fr_FR", "zh_Hans_CN", "es-419", "haw_US"] {
            #expect(try await store.world(AppStore.defaultWorld).saveCustomer("loc", storefront: nil, locale: good).locale == good)
        }
    }

    @Test func storefrontDecidesCurrencyAndProductionGoesIntoThePayload() async throws {
        let store = try await makeStore(apps: [try makeApp(environment: .production)])
        _ = try await store.world(AppStore.defaultWorld).saveCustomer("francois", storefront: "FRA", locale: nil)
        let t = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "francois")).transaction!.payload
        #expect(t.storefront == "FRA" && t.storefrontId == "143442" && t.currency == "EUR")
        #expect(t.environment == .production)
        let (front, listing) = try store.products(bundleId: testBundle, storefront: "FRA", locale: nil, ids: ["test.seeds"])
        #expect(front.currency == "EUR")
        #expect(listing.first?.displayName == "Graines")
        #expect(listing.first?.displayPrice == "0,99\u{00A0}€")
    }
}

/// A purchase refused after the customer and their copy of the app were made in memory (here by
/// the Transaction Manager's simulated Purchase error) wrote neither; the next purchase found them
/// in memory and did not write them either, so after a restart the customer was unknown and their
/// app transaction got a new ID. Now they are written by the next batch that uses them.
@Suite(.removesTemporaryFolders) struct UnwrittenCustomerTests {
    @Test func aCustomerMadeByARefusedPurchaseIsWrittenByTheNextOne() async throws {
        let path = databasePath()
        let store = try await makeStore(path: path)
        _ = try await store.world(AppStore.defaultWorld).setSimulatedError(api: "Purchase", error: "unknown")
        await #expect(throws: (any Error).self) {
            _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "carol"))
        }
        _ = try await store.world(AppStore.defaultWorld).setSimulatedError(api: "Purchase", error: nil)
        _ = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "carol"))
        let copy = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "carol").payload.appTransactionId
        await store.close()

        let restarted = try await makeStore(path: path)
        #expect(try await restarted.world(AppStore.defaultWorld).customer("carol") != nil)
        #expect(try await restarted.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "carol").payload.appTransactionId == copy)
        await restarted.close()
    }
}
