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
        let bought = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction)
        func listed() async throws -> Signed<TransactionPayload> {
            try #require(try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: .all).first)
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
        let bought = try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction)
        _ = try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: .all)
        _ = try await store.world(AppStore.defaultWorld).refund(transactionId: bought.payload.transactionId)
        // Same instant as the cached signature, but a new change number: the refund shows.
        let history = try await store.world(AppStore.defaultWorld).customerHistory(bundleId: testBundle, customer: "al")
        let listed = try #require(history.transactions.first)
        #expect(listed.payload.revocationDate != nil)
        #expect(listed.jws != bought.jws)
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        #expect(try verifier.verifyAndDecode(TransactionPayload.self, from: listed.jws).revocationDate == listed.payload.revocationDate)
    }

    /// The Server API's page copies cached revisions by their change numbers alone: the same
    /// bytes at the same instant, a refund's new revision at once, a fresh signature after a second.
    @Test func aHistoryPageCopiesCachedRevisionsAndNeverAStaleOne() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let key = try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle)
        let token = try APITokenSigner(generated: key).token(now: store.clock.now(), options: .swift)
        let caller = try await ServerAPIGateway(store: store).authenticate(token: token)
        var bought: [Signed<TransactionPayload>] = []
        for _ in 0..<3 {
            bought.append(try #require(try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "al")).transaction))
        }
        func page() async throws -> [String] {
            try await store.transactionHistory(
                anyTransactionId: bought[0].payload.transactionId, request: TransactionHistoryRequest(), version: .v2, caller: caller
            ).signedTransactions
        }
        #expect(try await page() == bought.map(\.jws))
        _ = try await store.world(AppStore.defaultWorld).refund(transactionId: bought[1].payload.transactionId)
        let afterRefund = try await page()
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        // The refunded revision has the next change number: it leaves its place and comes last.
        #expect(Array(afterRefund.prefix(2)) == [bought[0].jws, bought[2].jws])
        #expect(try verifier.verifyAndDecode(TransactionPayload.self, from: afterRefund[2]).revocationDate != nil)
        clock.advance(1.5)
        let fresh = try await page()
        #expect(Set(fresh).isDisjoint(with: afterRefund))
        for jws in fresh { #expect(try verifier.verifyAndDecode(TransactionPayload.self, from: jws).signedDate == bought[0].payload.signedDate + 1_500) }
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
        // By change number alone (a history page): all or nothing, in the order asked.
        #expect(cache.jwsOfAll(seqs: [5, 4, 3], nowMs: 100) == ["jws-5", "jws-4", "jws-3"])
        #expect(cache.jwsOfAll(seqs: [5, 2], nowMs: 100) == nil)
        #expect(cache.signed(id: 4, seq: 5, nowMs: 100) == nil)
    }
}
