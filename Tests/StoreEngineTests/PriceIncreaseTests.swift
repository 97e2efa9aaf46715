import Foundation
import StoreEngine
import StoreModel
import StoreTestSupport
import Testing

@Suite(.removesTemporaryFolders) struct PriceIncreaseTests {
    @Test func consentedIncreaseIsChargedAtTheRenewal() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("ana")
        let seq = try await store.lastEventSeq()

        let pending = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "44.99").payload
        #expect(pending.priceIncreaseStatus == .notResponded)
        #expect(pending.renewalPrice == 44_990 && pending.currency == "USD")
        #expect(pending.autoRenewStatus == .on && pending.renewalDate == first.expiresDate)
        let message = try #require(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana").first)
        #expect(message.reason == .priceIncreaseConsent && message.newPrice == 44_990 && message.currency == "USD")
        #expect(message.originalTransactionId == first.originalTransactionId && message.productId == "test.yearly")

        let accepted = try await store.world(AppStore.defaultWorld).consentToPriceIncrease(transactionId: first.transactionId).payload
        #expect(accepted.priceIncreaseStatus == .consentedOrNotified && accepted.renewalPrice == 44_990)
        // The question is answered: the consent message no longer waits.
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana").isEmpty)
        // Consenting twice changes nothing.
        #expect(try await store.world(AppStore.defaultWorld).consentToPriceIncrease(transactionId: first.transactionId).payload.priceIncreaseStatus == .consentedOrNotified)

        try await store.advance(days: 366)
        let status = try await store.status("ana")
        let renewal = status.transaction.payload
        #expect(status.status == .active)
        #expect(renewal.transactionReason == .renewal && renewal.originalTransactionId == first.transactionId)
        #expect(renewal.price == 44_990 && renewal.purchaseDate == first.expiresDate)
        let info = status.renewalInfo.payload
        #expect(info.priceIncreaseStatus == nil && info.renewalPrice == 44_990 && info.autoRenewStatus == .on)
        #expect(try await store.eventNames(after: seq) == ["PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "DID_RENEW"])
    }

    @Test func declinedIncreaseTurnsAutoRenewOffAndExpiresWithIntentThree() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("ben")
        let seq = try await store.lastEventSeq()
        _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "49.99", mode: .consent)

        let declined = try await store.world(AppStore.defaultWorld).declinePriceIncrease(transactionId: first.transactionId).payload
        #expect(declined.autoRenewStatus == .off && declined.renewalDate == nil)
        #expect(declined.priceIncreaseStatus == .notResponded && declined.renewalPrice == 49_990)
        #expect(declined.expirationIntent == nil) // not expired yet
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ben").isEmpty)

        try await store.advance(days: 366)
        let status = try await store.status("ben")
        #expect(status.status == .expired)
        #expect(status.transaction.payload.transactionId == first.transactionId) // no renewal
        let info = status.renewalInfo.payload
        #expect(info.expirationIntent == .didNotConsentToPriceIncrease && info.autoRenewStatus == .off)
        #expect(info.priceIncreaseStatus == nil && info.renewalPrice == 39_990)
        #expect(try await store.eventNames(after: seq) == [
            "PRICE_INCREASE/PENDING", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/PRICE_INCREASE",
        ])
    }

    @Test func consentAfterDecliningRenewsAgain() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("cleo")
        _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "49.99")
        _ = try await store.world(AppStore.defaultWorld).declinePriceIncrease(transactionId: first.transactionId)
        let seq = try await store.lastEventSeq()
        let info = try await store.world(AppStore.defaultWorld).consentToPriceIncrease(transactionId: first.transactionId).payload
        #expect(info.autoRenewStatus == .on && info.priceIncreaseStatus == .consentedOrNotified && info.expirationIntent == nil)
        #expect(try await store.eventNames(after: seq) == ["PRICE_INCREASE/ACCEPTED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED"])
        try await store.advance(days: 366)
        #expect(try await store.status("cleo").transaction.payload.price == 49_990)
    }

    @Test func anUnansweredConsentExpiresTheSubscription() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("dev")
        _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "44.99")
        try await store.advance(days: 366)
        let status = try await store.status("dev")
        #expect(status.status == .expired && status.renewalInfo.payload.expirationIntent == .didNotConsentToPriceIncrease)
        #expect(try await store.eventNames().suffix(1) == ["EXPIRED/PRICE_INCREASE"])
        // The unanswered consent message still waits; the app decides what to do with it.
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "dev").map(\.reason) == [.priceIncreaseConsent])
    }

    @Test func notifyOnlyIsAcceptedAtOnceWithoutAMessage() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("eve")
        let seq = try await store.lastEventSeq()
        let info = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "41.99", mode: .notify).payload
        #expect(info.priceIncreaseStatus == .consentedOrNotified && info.renewalPrice == 41_990 && info.autoRenewStatus == .on)
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "eve").isEmpty)
        try await store.advance(days: 366)
        let status = try await store.status("eve")
        #expect(status.transaction.payload.price == 41_990 && status.transaction.payload.transactionReason == .renewal)
        #expect(try await store.eventNames(after: seq) == ["PRICE_INCREASE/ACCEPTED", "DID_RENEW"])
    }

    @Test func askingAgainReplacesThePriceAndTheWaitingMessage() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("fay")
        _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "44.99")
        let info = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "45.99").payload
        #expect(info.renewalPrice == 45_990)
        let messages = try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "fay")
        #expect(messages.count == 1 && messages.first?.newPrice == 45_990)
    }

    @Test func badRequestsAreRefused() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("gus")
        let seeds = try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "gus")).transaction!.payload
        let id = first.transactionId
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: id, newPrice: "39.99") } == "invalidAction")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: id, newPrice: "1.00") } == "invalidAction")
        for bad in ["", "abc", "-5", "5.9999", "5,99", "1e3", ".5"] {
            #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: id, newPrice: bad) } == "malformedRequest", "\(bad)")
        }
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).consentToPriceIncrease(transactionId: id) } == "invalidAction")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).declinePriceIncrease(transactionId: id) } == "invalidAction")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: seeds.transactionId, newPrice: "9.99") } == "invalidAction")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: "999", newPrice: "49.99") } == "transactionNotFound")
        _ = try await store.world(AppStore.defaultWorld).expireSubscription(transactionId: id)
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: id, newPrice: "49.99") } == "invalidAction")
    }
}
