import Foundation
import StoreEngine
import StoreTestSupport
import StoreModel
import Testing

@Suite(.removesTemporaryFolders) struct FamilySharingTests {
    func entitlements(_ store: AppStore, _ customer: String) async throws -> [TransactionPayload] {
        try await store.world(AppStore.defaultWorld).transactions(bundleId: offerBundle, customer: customer, scope: .entitlements).map(\.payload)
    }

    @Test func membersGetTheirOwnFamilySharedCopiesWhileThePurchaserIsEntitled() async throws {
        let store = try await makeOfferStore()
        _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "parent", group: "smiths")
        let joined = try await store.world(AppStore.defaultWorld).joinFamily(customer: "kid", group: "smiths")
        #expect(joined.members == ["kid", "parent"])

        let book = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.book", "parent"), offer: nil).transaction?.payload)
        let sub = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil).transaction?.payload)

        let kid = try await entitlements(store, "kid")
        #expect(kid.count == 2)
        #expect(kid.allSatisfy { $0.inAppOwnershipType == .familyShared && $0.appAccountToken == nil })
        let kidBook = try #require(kid.first { $0.productId == "o.book" })
        #expect(kidBook.transactionId != book.transactionId && kidBook.originalTransactionId == kidBook.transactionId)
        let kidSub = try #require(kid.first { $0.productId == "o.monthly" })
        #expect(kidSub.transactionId != sub.transactionId && kidSub.expiresDate == sub.expiresDate && kidSub.purchaseDate == sub.purchaseDate)
        let kidApp = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: offerBundle, customer: "kid")
        #expect(kidSub.appTransactionId == kidApp.payload.appTransactionId && kidSub.appTransactionId != sub.appTransactionId)

        // A renewal is shared too, continuing the kid's own copy chain.
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 8 * 86_400_000)
        let renewed = try #require(try await entitlements(store, "kid").first { $0.productId == "o.monthly" })
        #expect(renewed.transactionReason == .renewal)
        #expect(renewed.transactionId != kidSub.transactionId && renewed.originalTransactionId == kidSub.originalTransactionId)

        // Consumables are never shared; the parent's own entitlements stay PURCHASED.
        #expect(try await entitlements(store, "parent").allSatisfy { $0.inAppOwnershipType == .purchased })
    }

    @Test func aRefundRevokesTheCopiesWithFamilyRevoke() async throws {
        let store = try await makeOfferStore()
        _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "parent", group: "g")
        _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "kid", group: "g")
        let book = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.book", "parent"), offer: nil).transaction?.payload)
        _ = try await store.world(AppStore.defaultWorld).refund(transactionId: book.transactionId, reason: .dueToIssue)

        #expect(try await entitlements(store, "kid").isEmpty)
        let copy = try #require(try await store.world(AppStore.defaultWorld).transactions(bundleId: offerBundle, customer: "kid", scope: .all).first?.payload)
        #expect(copy.revocationType == .familyRevoke)
        #expect(copy.revocationReason == .dueToIssue)  // the purchaser's reason
        #expect(copy.revocationDate != nil)
        let events = try await store.world(AppStore.defaultWorld).events()
        #expect(events.contains { $0.type == "REVOKE" && $0.customer == "kid" && $0.transactionId == Int64(copy.transactionId) })
    }

    @Test func joiningLaterSharesWhatStillGrantsAccessAndLeavingRevokes() async throws {
        let store = try await makeOfferStore()
        _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.book", "parent"), offer: nil)
        _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil)
        _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "parent", group: "g")
        _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "kid", group: "g")
        #expect(try await entitlements(store, "kid").count == 2)

        _ = try await store.world(AppStore.defaultWorld).leaveFamily(customer: "kid")
        #expect(try await entitlements(store, "kid").isEmpty)
        let copies = try await store.world(AppStore.defaultWorld).transactions(bundleId: offerBundle, customer: "kid", scope: .all).map(\.payload)
        #expect(copies.count == 2 && copies.allSatisfy { $0.revocationType == .familyRevoke && $0.revocationReason == .otherReason })
        #expect(try await store.world(AppStore.defaultWorld).family(of: "kid").group == nil)
        #expect(try await store.world(AppStore.defaultWorld).family(of: "parent").members == ["parent"])
    }

    @Test func familiesAndCopiesSurviveARestart() async throws {
        let path = databasePath()
        let clock = TestClock()
        let first = try await makeStore(path: path, clock: clock, apps: [
            try StoreApp(bundleId: offerBundle, appAppleId: 77, environment: .sandbox, name: "Offers", catalogJSON: offerCatalogJSON),
        ])
        _ = try await first.world(AppStore.defaultWorld).joinFamily(customer: "parent", group: "g")
        _ = try await first.world(AppStore.defaultWorld).joinFamily(customer: "kid", group: "g")
        let book = try #require(try await first.world(AppStore.defaultWorld).purchase(offerPurchase("o.book", "parent"), offer: nil).transaction?.payload)
        await first.shutdown()
        await first.close()

        let second = try await makeStore(path: path, clock: clock, apps: [
            try StoreApp(bundleId: offerBundle, appAppleId: 77, environment: .sandbox, name: "Offers", catalogJSON: offerCatalogJSON),
        ])
        #expect(try await second.world(AppStore.defaultWorld).family(of: "kid").members == ["kid", "parent"])
        _ = try await second.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil)
        #expect(try await entitlements(second, "kid").count == 2)
        _ = try await second.world(AppStore.defaultWorld).refund(transactionId: book.transactionId)
        let kid = try await entitlements(second, "kid")
        #expect(kid.map(\.productId) == ["o.monthly"])
    }

    /// One purchase path: an Ask to Buy approval after a restart (families not read back yet) is
    /// shared with the family like any other purchase, and so is a purchase without offer options.
    @Test func anAskToBuyApprovalAfterARestartIsShared() async throws {
        let path = databasePath()
        let clock = TestClock()
        let app = { try StoreApp(bundleId: offerBundle, appAppleId: 77, environment: .sandbox, name: "Offers", catalogJSON: offerCatalogJSON) }
        let first = try await makeStore(path: path, clock: clock, apps: [try app()])
        _ = try await first.world(AppStore.defaultWorld).joinFamily(customer: "parent", group: "g")
        _ = try await first.world(AppStore.defaultWorld).joinFamily(customer: "kid", group: "g")
        _ = try await first.world(AppStore.defaultWorld).setSwitches(SessionSwitches(askToBuy: true))
        let pending = try await first.world(AppStore.defaultWorld).purchase(offerPurchase("o.book", "parent"), offer: nil)
        let id = try #require(pending.pendingId)
        await first.shutdown()
        await first.close()

        let second = try await makeStore(path: path, clock: clock, apps: [try app()])
        let approved = try #require(try await second.world(AppStore.defaultWorld).answerAskToBuy(id, approve: true)?.transaction?.payload)
        #expect(approved.productId == "o.book")
        #expect(try await entitlements(second, "kid").map(\.productId) == ["o.book"])
        await second.shutdown()
        await second.close()

        // The plain entry point after a restart shares too.
        let third = try await makeStore(path: path, clock: clock, apps: [try app()])
        _ = try await third.world(AppStore.defaultWorld).setSwitches(SessionSwitches(askToBuy: false))
        _ = try await third.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"))
        #expect(Set(try await entitlements(third, "kid").map(\.productId)) == ["o.book", "o.monthly"])
    }

    @Test func aFamilyHasAtMostSixPeople() async throws {
        let store = try await makeOfferStore()
        for index in 1...6 { _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "m\(index)", group: "big") }
        await #expect(throws: StoreError.self) { _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: "m7", group: "big") }
    }
}
