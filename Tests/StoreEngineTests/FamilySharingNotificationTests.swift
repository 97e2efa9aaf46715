import Foundation
@testable import StoreEngine
import StoreModel
import StoreStorage
import StoreTestSupport
import Testing

/// A family member's copy gets App Store Server Notifications of its own, with the member's
/// transaction and `inAppOwnershipType` FAMILY_SHARED, after the purchaser's (Apple Developer
/// Forums thread 744155; Apple's "Updates to App Store server notifications", 2021).
@Suite(.removesTemporaryFolders) struct FamilySharingNotificationTests {
    func familyStore() async throws -> AppStore {
        let store = try await makeOfferStore()
        // Notifications are made only for an app with a notification URL (nothing listens here).
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/notifications", bundleId: offerBundle)
        for person in ["parent", "kid", "teen"] { _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: person, group: "smiths") }
        return store
    }

    func outbox(_ store: AppStore, after seq: Int64 = 0) async throws -> [NotificationRecord] {
        try await store.database.notifications(world: AppStore.defaultWorld).filter { $0.seq > seq }.sorted { $0.seq < $1.seq }
    }

    func transaction(_ row: NotificationRecord) throws -> TransactionPayload {
        let json = try #require(row.transactionJSON)
        return try TransactionPayload(json: Array(json.utf8))
    }

    func renewalInfo(_ row: NotificationRecord) throws -> [String: Any] {
        let json = try #require(row.renewalJSON)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func copy(_ store: AppStore, _ member: String, of productId: String) async throws -> TransactionPayload {
        try #require(try await store.world(AppStore.defaultWorld).transactions(bundleId: offerBundle, customer: member, scope: .all).map(\.payload)
            .filter { $0.productId == productId }.max { $0.purchaseDate < $1.purchaseDate })
    }

    @Test func aSharedSubscriptionNotifiesEachMemberWithTheirOwnTransactionAfterThePurchaser() async throws {
        let store = try await familyStore()
        let sub = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent", token: "8d2f4c8e-52a4-4c3b-9a3d-1c1f0b7f3e11"), offer: nil).transaction?.payload)

        let subscribed = try await outbox(store).filter { $0.type == "SUBSCRIBED" }
        #expect(subscribed.map(\.customer) == ["parent", "kid", "teen"])  // the purchaser's first
        let parent = try #require(subscribed.first)
        #expect(parent.subtype == "INITIAL_BUY" && parent.transactionId == Int64(sub.transactionId))
        #expect(try transaction(parent).inAppOwnershipType == .purchased)

        for member in ["kid", "teen"] {
            let row = try #require(subscribed.first { $0.customer == member })
            let own = try await copy(store, member, of: "o.monthly")
            #expect(row.subtype == "INITIAL_BUY")
            #expect(row.transactionId == Int64(own.transactionId) && row.transactionId != Int64(sub.transactionId))
            #expect(row.originalId == Int64(own.originalTransactionId))
            let payload = try transaction(row)
            #expect(payload.transactionId == own.transactionId && payload.inAppOwnershipType == .familyShared)
            #expect(payload.appAccountToken == nil)  // the purchaser's link to an account, not the member's
            // Renewal info: the member's own chain of the shared subscription, active.
            let info = try renewalInfo(row)
            #expect(info["originalTransactionId"] as? String == own.originalTransactionId)
            #expect(info["appAccountToken"] == nil && info["autoRenewStatus"] as? Int == 1)
            #expect(info["appTransactionId"] as? String == own.appTransactionId)
            #expect(row.body.contains(#""status":1"#))
        }
    }

    @Test func aRenewalNotifiesEachMembersNewCopy() async throws {
        let store = try await familyStore()
        _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil)
        let first = try await copy(store, "kid", of: "o.monthly")
        let before = try await store.lastEventSeq()

        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 8 * 86_400_000)
        let renewals = try await outbox(store, after: before).filter { $0.type == "DID_RENEW" }
        #expect(renewals.map(\.customer) == ["parent", "kid", "teen"])
        let kidRenewal = try #require(renewals.first { $0.customer == "kid" })
        let renewed = try await copy(store, "kid", of: "o.monthly")
        #expect(renewed.transactionReason == .renewal && renewed.transactionId != first.transactionId)
        #expect(kidRenewal.transactionId == Int64(renewed.transactionId))
        #expect(kidRenewal.originalId == Int64(first.originalTransactionId))  // the kid's own chain continues
        #expect(try transaction(kidRenewal).inAppOwnershipType == .familyShared)
        #expect(try renewalInfo(kidRenewal)["originalTransactionId"] as? String == first.originalTransactionId)
    }

    @Test func turningOffAutoRenewNotifiesTheMembersToo() async throws {
        let store = try await familyStore()
        let sub = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil).transaction?.payload)
        let before = try await store.lastEventSeq()
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: sub.transactionId, enabled: false)

        let changes = try await outbox(store, after: before).filter { $0.type == "DID_CHANGE_RENEWAL_STATUS" }
        #expect(changes.map(\.customer) == ["parent", "kid", "teen"])
        #expect(changes.allSatisfy { $0.subtype == "AUTO_RENEW_DISABLED" })
        let kid = try #require(changes.first { $0.customer == "kid" })
        #expect(kid.transactionId == Int64(try await copy(store, "kid", of: "o.monthly").transactionId))
        #expect(try renewalInfo(kid)["autoRenewStatus"] as? Int == 0)
    }

    @Test func aBillingFailureNotifiesTheMembers() async throws {
        let store = try await familyStore()
        _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil)
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(failRenewals: true))
        let before = try await store.lastEventSeq()
        _ = try await store.advanceTime(AppStore.defaultWorld, byMs: 8 * 86_400_000)

        let failures = try await outbox(store, after: before).filter { $0.type == "DID_FAIL_TO_RENEW" }
        #expect(failures.map(\.customer) == ["parent", "kid", "teen"])
        #expect(try failures.dropFirst().allSatisfy { try transaction($0).inAppOwnershipType == .familyShared })
    }

    @Test func membersGetNoNotificationForANonConsumableUntilTheyLoseIt() async throws {
        let store = try await familyStore()
        let book = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.book", "parent"), offer: nil).transaction?.payload)
        #expect(try await outbox(store).map(\.customer) == ["parent"])  // ONE_TIME_CHARGE, the purchaser's only

        let before = try await store.lastEventSeq()
        _ = try await store.world(AppStore.defaultWorld).refund(transactionId: book.transactionId)
        let rows = try await outbox(store, after: before)
        #expect(rows.filter { $0.type == "REVOKE" }.map(\.customer).sorted() == ["kid", "teen"])
        #expect(rows.filter { $0.type == "REVOKE" }.allSatisfy { $0.renewalJSON == nil })
    }

    /// An immediate upgrade gives each member a copy of the new product: the member gets
    /// SUBSCRIBED for it (Apple: access "through Family Sharing … to another subscription within
    /// the same subscription group"), the purchaser DID_CHANGE_RENEWAL_PREF/UPGRADE.
    @Test func anUpgradeNotifiesEachMemberWithTheirCopyOfTheNewProduct() async throws {
        // The fixture's higher level (o.premium) made shareable for this test.
        let catalog = offerCatalogJSON.replacingOccurrences(of: "\"familyShareable\" : false", with: "\"familyShareable\" : true")
        let store = try await makeStore(apps: [try StoreApp(bundleId: offerBundle, appAppleId: 77, environment: .sandbox, name: "Offers", catalogJSON: catalog)])
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/notifications", bundleId: offerBundle)
        for person in ["parent", "kid"] { _ = try await store.world(AppStore.defaultWorld).joinFamily(customer: person, group: "smiths") }
        _ = try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil)
        let before = try await store.lastEventSeq()
        let upgraded = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.premium", "parent"), offer: nil).transaction?.payload)
        #expect(upgraded.productId == "o.premium")
        let rows = try await outbox(store, after: before)
        #expect(rows.contains { $0.customer == "parent" && $0.type == "DID_CHANGE_RENEWAL_PREF" && $0.subtype == "UPGRADE" })
        let kidCopy = try await copy(store, "kid", of: "o.premium")
        let kidRow = try #require(rows.first { $0.customer == "kid" && $0.type == "SUBSCRIBED" }, "the member got no notification for the upgrade: \(rows.map { "\($0.customer) \($0.type)" })")
        let kidPayload = try transaction(kidRow)
        #expect(kidRow.transactionId == Int64(kidCopy.transactionId) && kidPayload.inAppOwnershipType == .familyShared)
        #expect(kidRow.subtype == (kidCopy.originalTransactionId == kidCopy.transactionId ? "INITIAL_BUY" : "RESUBSCRIBE"))
    }

    @Test func theRuleMirrorsWhatApplesEvidenceNamesAndNothingElse() {
        func mirrored(_ type: String, _ subtype: String?, starts: Bool = false) -> String? {
            FamilySharingRules.memberNotification(
                type: NotificationType(rawValue: type)!, subtype: subtype.flatMap(NotificationSubtype.init(rawValue:)), startsMemberChain: starts)
                .map { [$0.type.rawValue, $0.subtype?.rawValue].compactMap { $0 }.joined(separator: "/") }
        }
        // The member's own chain decides the subtype: a new copy chain is the member's first subscription.
        #expect(mirrored("SUBSCRIBED", "RESUBSCRIBE", starts: true) == "SUBSCRIBED/INITIAL_BUY")
        #expect(mirrored("SUBSCRIBED", "INITIAL_BUY", starts: false) == "SUBSCRIBED/RESUBSCRIBE")
        #expect(mirrored("OFFER_REDEEMED", "UPGRADE") == "OFFER_REDEEMED/UPGRADE")
        #expect(mirrored("DID_RENEW", "BILLING_RECOVERY") == "DID_RENEW/BILLING_RECOVERY")
        #expect(mirrored("DID_FAIL_TO_RENEW", "GRACE_PERIOD") == "DID_FAIL_TO_RENEW/GRACE_PERIOD")
        #expect(mirrored("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED") == "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED")
        #expect(mirrored("DID_CHANGE_RENEWAL_PREF", "UPGRADE", starts: false) == "SUBSCRIBED/RESUBSCRIBE")
        #expect(mirrored("DID_CHANGE_RENEWAL_PREF", "DOWNGRADE") == nil)
        for silent in ["ONE_TIME_CHARGE", "EXPIRED", "GRACE_PERIOD_EXPIRED", "DID_CHANGE_RENEWAL_PREF", "PRICE_INCREASE",
                       "RENEWAL_EXTENDED", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "REVOKE", "CONSUMPTION_REQUEST"] {
            #expect(mirrored(silent, nil) == nil, "\(silent)")
        }
    }

    @Test func aMemberWhoLeftGetsNoMoreNotifications() async throws {
        let store = try await familyStore()
        let sub = try #require(try await store.world(AppStore.defaultWorld).purchase(offerPurchase("o.monthly", "parent"), offer: nil).transaction?.payload)
        _ = try await store.world(AppStore.defaultWorld).leaveFamily(customer: "teen")
        let revoke = try #require(try await outbox(store).last { $0.type == "REVOKE" && $0.customer == "teen" })
        #expect(revoke.body.contains(#""status":5"#))  // the teen's copy of the subscription is revoked
        #expect(try renewalInfo(revoke)["autoRenewStatus"] as? Int == 0)

        let before = try await store.lastEventSeq()
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: sub.transactionId, enabled: false)
        #expect(try await outbox(store, after: before).map(\.customer) == ["parent", "kid"])
    }
}
