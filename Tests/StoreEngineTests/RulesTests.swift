import StoreEngine
import StoreTestSupport
import StoreModel
import Testing

@Suite(.removesTemporaryFolders) struct RulesTests {
    func owned(_ product: String, kind: ProductKind, group: String? = nil, expires: Int64? = nil, revoked: Int64? = nil, id: Int64 = 1) -> OwnedTransaction {
        OwnedTransaction(id: id, originalId: id, productId: product, kind: kind, groupId: group, purchaseMs: 0, expiresMs: expires, revokedMs: revoked, finished: false)
    }

    @Test func introOfferIsOncePerGroupPerCustomer() {
        #expect(OfferEligibility.isEligibleForIntroOffer(groupId: "G1", history: []))
        #expect(OfferEligibility.isEligibleForIntroOffer(groupId: "G1", history: [owned("x", kind: .autoRenewable, group: "G2", expires: 10)]))
        #expect(!OfferEligibility.isEligibleForIntroOffer(groupId: "G1", history: [owned("y", kind: .autoRenewable, group: "G1", expires: 10)]))
        // Expired or refunded, a past subscription in the group still uses up the intro offer.
        #expect(!OfferEligibility.isEligibleForIntroOffer(groupId: "G1", history: [owned("y", kind: .autoRenewable, group: "G1", expires: 1, revoked: 2)]))
    }

    @Test func refundedNonConsumableMayBeBoughtAgain() throws {
        let catalog = try Catalog.decode(Data(testCatalogJSON.utf8))
        let product = try #require(catalog.product("test.history"))
        #expect(throws: StoreError.self) { try PurchaseRules.checkNotOwned(product, history: [owned("test.history", kind: .nonConsumable)], nowMs: 0) }
        try PurchaseRules.checkNotOwned(product, history: [owned("test.history", kind: .nonConsumable, revoked: 5)], nowMs: 0)
    }

    @Test func entitlementsKeepOnlyLiveUnrevokedNonConsumables() {
        let history = [
            owned("c", kind: .consumable, id: 1),
            owned("n", kind: .nonConsumable, id: 2),
            owned("r", kind: .nonConsumable, revoked: 3, id: 3),
            owned("s", kind: .autoRenewable, group: "G", expires: 100, id: 4),
            owned("old", kind: .autoRenewable, group: "G", expires: 10, id: 5),
        ]
        #expect(Entitlements.current(history, nowMs: 50).map(\.id) == [2, 4])
        #expect(Entitlements.current(history, nowMs: 200).map(\.id) == [2])
    }
}

import Foundation
