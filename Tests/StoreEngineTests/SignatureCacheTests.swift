import Foundation
@testable import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing

/// History pages copy the signed form of an unchanged transaction revision instead of signing it
/// again, but never hand out a stale revision or a signature older than a second of world time.
@Suite struct SignatureCacheTests {
    @Test func anUnchangedRevisionIsCopiedWithinASecondAndSignedAfreshAfter() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let bought = try #require(try await store.purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction)
        func listed() async throws -> Signed<TransactionPayload> {
            try #require(try await store.transactions(bundleId: testBundle, customer: "al", scope: .all).first)
        }
        // Same instant: the purchase's own signature is handed out again, byte for byte.
        #expect(try await listed().jws == bought.jws)
        clock.advance(0.5)
        #expect(try await listed().jws == bought.jws)
        // Past the second: signed anew, dated now, and it verifies.
        clock.advance(1)
        let fresh = try await listed()
        #expect(fresh.jws != bought.jws)
        #expect(fresh.payload.signedDate == bought.payload.signedDate + 1_500)
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        #expect(try verifier.verifyAndDecode(TransactionPayload.self, from: fresh.jws) == fresh.payload)
    }

    @Test func aChangedTransactionIsNeverServedFromTheCache() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let bought = try #require(try await store.purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction)
        _ = try await store.transactions(bundleId: testBundle, customer: "al", scope: .all)
        _ = try await store.refund(transactionId: bought.payload.transactionId)
        // Same instant as the cached signature, but a new change number: the refund shows.
        let history = try await store.customerHistory(bundleId: testBundle, customer: "al")
        let listed = try #require(history.transactions.first)
        #expect(listed.payload.revocationDate != nil)
        #expect(listed.jws != bought.jws)
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        #expect(try verifier.verifyAndDecode(TransactionPayload.self, from: listed.jws).revocationDate == listed.payload.revocationDate)
    }

    @Test func memoryIsBoundedOldestFirst() {
        let cache = SignatureCache(capacity: 3, maxAgeMs: 1_000)
        let payload = TransactionPayload(
            originalTransactionId: "1", transactionId: "1", bundleId: "b", productId: "p", purchaseDate: 0, originalPurchaseDate: 0,
            type: .consumable, signedDate: 100, environment: .sandbox, storefront: "USA", storefrontId: "143441",
            currency: "USD", price: 0, appTransactionId: "1")
        for id in Int64(1)...5 { cache.store(id: id, seq: id, Signed(jws: "jws-\(id)", payload: payload)) }
        #expect(cache.count == 3)
        #expect(cache.signed(id: 1, seq: 1, nowMs: 100) == nil)
        #expect(cache.signed(id: 2, seq: 2, nowMs: 100) == nil)
        #expect(cache.signed(id: 5, seq: 5, nowMs: 100)?.jws == "jws-5")
        // Another change number of the same transaction is another revision.
        #expect(cache.signed(id: 5, seq: 6, nowMs: 100) == nil)
        // Too old, or dated after now (a clock that went back): not reused.
        #expect(cache.signed(id: 5, seq: 5, nowMs: 1_101) == nil)
        #expect(cache.signed(id: 5, seq: 5, nowMs: 99) == nil)
    }
}
