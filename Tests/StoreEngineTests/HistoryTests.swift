import Foundation
import StoreEngine
import StoreTestSupport
import StoreModel
import StoreSigning
import Testing

@Suite(.removesTemporaryFolders) struct HistoryTests {
    @Test func scopesFollowStoreKitsTransactionSequences() async throws {
        let store = try await makeStore()
        let seeds = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "al")).transaction!.payload
        let history = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction!.payload
        let monthly = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "al")).transaction!.payload
        let season = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.season", customer: "al")).transaction!.payload

        func ids(_ scope: TransactionScope) async throws -> [String] {
            try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: scope).map(\.payload.transactionId)
        }
        #expect(try await ids(.all) == [seeds, history, monthly, season].map(\.transactionId))
        #expect(try await ids(.entitlements) == [history, monthly, season].map(\.transactionId))
        #expect(try await ids(.unfinished) == [seeds, history, monthly, season].map(\.transactionId))

        try await store.world(AppStore.defaultWorld).finish(bundleId: testBundle, customer: "al", transactionId: seeds.transactionId)
        #expect(try await ids(.unfinished) == [history, monthly, season].map(\.transactionId))
        // A finished consumable leaves Transaction.all, as in StoreKit.
        #expect(try await ids(.all) == [history, monthly, season].map(\.transactionId))

        await #expect(throws: StoreError.self) {
            try await store.world(AppStore.defaultWorld).finish(bundleId: testBundle, customer: "someone-else", transactionId: history.transactionId)
        }
    }

    @Test func listedTransactionsAreFreshlySignedAndVerify() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let bought = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction!
        clock.advance(60)
        let listed = try #require(try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: .all).first)
        #expect(listed.payload.signedDate == bought.payload.signedDate + 60_000)
        var expected = bought.payload
        expected.signedDate = listed.payload.signedDate
        #expect(listed.payload == expected)
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        #expect(try verifier.verifyAndDecode(TransactionPayload.self, from: listed.jws) == expected)
    }

    @Test func everythingSurvivesARestartAndIdentifiersContinue() async throws {
        let path = databasePath()
        let first = try await makeStore(path: path)
        let a = try await first.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction!.payload
        let root = first.authority.rootDER
        await first.shutdown()
        await first.close()

        let second = try await makeStore(path: path)
        #expect(second.authority.rootDER == root)
        await #expect(throws: StoreError.self) {
            try await second.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al"))
        }
        let b = try await second.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "al")).transaction!.payload
        #expect(Int64(b.transactionId)! > Int64(a.transactionId)!)
        #expect(try await second.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: .all).count == 2)
    }

    /// The Transaction Manager's Delete: gone from memory and from the database (a restart reads
    /// nothing back); a subscription's transaction takes the whole subscription.
    @Test func deletedTransactionsAndSubscriptionsStayDeletedAfterARestart() async throws {
        let path = databasePath()
        let first = try await makeStore(path: path)
        let book = try await first.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction!.payload
        let seeds = try await first.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "al")).transaction!.payload
        let monthly = try await first.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.monthly", customer: "al")).transaction!.payload
        _ = try await first.world(AppStore.defaultWorld).forceRenewal(transactionId: monthly.transactionId)
        #expect(try await first.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: .all).count == 4)
        await #expect(throws: StoreError.self) { try await first.world(AppStore.defaultWorld).deleteTransaction(transactionId: "987654321") }

        try await first.world(AppStore.defaultWorld).deleteTransaction(transactionId: book.transactionId)
        try await first.world(AppStore.defaultWorld).deleteTransaction(transactionId: monthly.transactionId)
        func check(_ store: AppStore) async throws {
            #expect(try await store.world(AppStore.defaultWorld).transactions(bundleId: testBundle, customer: "al", scope: .all).map(\.payload.transactionId) == [seeds.transactionId])
            #expect(try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: testBundle, customer: "al").isEmpty)
        }
        try await check(first)
        await first.shutdown()
        await first.close()

        let second = try await makeStore(path: path)
        try await check(second)
        // Bought again as new: the deleted purchase no longer counts as owned.
        let again = try await second.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.history", customer: "al")).transaction!.payload
        #expect(again.transactionId != book.transactionId)
    }

    @Test func appTransactionReproducesTheFoodTruckCase() async throws {
        let store = try await makeStore()
        let paid = try await store.world(AppStore.defaultWorld).updateAppTransaction(
            bundleId: testBundle, customer: "early", change: AppTransactionChange(originalApplicationVersion: "2.5", originalPurchaseDate: 1_600_000_000_000))
        let free = try await store.world(AppStore.defaultWorld).updateAppTransaction(
            bundleId: testBundle, customer: "late", change: AppTransactionChange(originalApplicationVersion: "8.2"))
        #expect(paid.payload.originalApplicationVersion == "2.5")
        #expect(paid.payload.originalPurchaseDate == 1_600_000_000_000)
        #expect(free.payload.originalApplicationVersion == "8.2")
        #expect(paid.payload.appTransactionId != free.payload.appTransactionId)
        // The app's rule from WWDC22: versions before 8.0 were paid, so those customers keep premium.
        func premium(_ version: String) -> Bool { version.compare("8.0", options: .numeric) == .orderedAscending }
        #expect(premium(paid.payload.originalApplicationVersion))
        #expect(!premium(free.payload.originalApplicationVersion))

        let again = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "early")
        #expect(again.payload.originalApplicationVersion == "2.5")
        #expect(again.payload.appTransactionId == paid.payload.appTransactionId)
        #expect(again.payload.bundleId == testBundle && again.payload.appAppleId == 1_234_567_890)
        #expect(again.payload.receiptType == .sandbox)
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        #expect(try verifier.verifyAndDecode(AppTransactionPayload.self, from: again.jws) == again.payload)
    }
}
