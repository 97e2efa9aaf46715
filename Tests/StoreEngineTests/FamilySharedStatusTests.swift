import Foundation
@testable import StoreEngine
import StoreModel
import StoreTestSupport
import Testing

/// A family member's subscription statuses list what the family shares with them beside their
/// own, as Get All Subscription Statuses and StoreKit's `SubscriptionInfo.status` do on Apple's
/// side ("an entry for each entitlement the user has", Apple Developer Forums 731683).
@Suite(.removesTemporaryFolders) struct FamilySharedStatusTests {
    @Test func aMemberSeesTheSharedSubscriptionAsTheirOwnChainUntilTheyLeave() async throws {
        let store = try await makeOfferStore()
        for person in ["parent", "kid"] { _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: person, group: "smiths") }
        let bought = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil).transaction?.payload)

        let parent = try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: offerBundle, customer: "parent")
        #expect(parent.count == 1 && parent.first?.transaction.payload.inAppOwnershipType == .purchased)

        let kid = try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: offerBundle, customer: "kid")
        let shared = try #require(kid.first)
        #expect(kid.count == 1)
        #expect(shared.status == .active && shared.groupId == parent.first?.groupId)
        let copy = shared.transaction.payload
        #expect(copy.inAppOwnershipType == .familyShared && copy.productId == "o.monthly")
        #expect(copy.transactionId != bought.transactionId && shared.originalTransactionId == copy.originalTransactionId)
        #expect(shared.renewalInfo.payload.originalTransactionId == copy.originalTransactionId)
        #expect(shared.renewalInfo.payload.autoRenewStatus.rawValue == 1)

        // The purchaser turns auto-renew off: the member's status shows it too.
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: bought.transactionId, enabled: false)
        let after = try #require(try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: offerBundle, customer: "kid").first)
        #expect(after.renewalInfo.payload.autoRenewStatus.rawValue == 0 && after.status == .active)

        // Leaving the family revokes the copy: the status says so.
        _ = try await store.world(AppStore.defaultWorld).leaveFamily(customer: "kid")
        let left = try #require(try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: offerBundle, customer: "kid").first)
        #expect(left.status == .revoked)
        // A customer outside any family has nothing shared.
        #expect(try await store.world(AppStore.defaultWorld).subscriptionStatuses(bundleId: offerBundle, customer: "stranger").isEmpty)
    }
}
