import Foundation
import StoreEngine
import StoreModel
import StoreTestSupport
import Testing

@Suite(.removesTemporaryFolders) struct MessageTests {
    @Test func messagesAreHandedOutUntilDisplayedAndNeverAfter() async throws {
        let store = try await makeStore()
        let first = try await store.subscribe("ana")
        _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "44.99")
        let handed = try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana")
        #expect(handed.count == 1)
        // Handing a message out does not mark it read: the app may defer it to a better moment.
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana") == handed)
        let now = try await store.world(AppStore.defaultWorld).nowMs()
        let shown = try await store.world(AppStore.defaultWorld).displayMessage(handed[0].id, bundleId: testBundle, customer: "ana")
        #expect(shown.displayedDate == now && shown.createdDate == now)
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana").isEmpty)
        // Displaying it again changes nothing, and it never comes back.
        #expect(try await store.world(AppStore.defaultWorld).displayMessage(handed[0].id, bundleId: testBundle, customer: "ana") == shown)
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana").isEmpty)
        // Another customer cannot display it; an unknown ID is refused.
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).displayMessage(handed[0].id, bundleId: testBundle, customer: "bob") } == "notFound")
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).displayMessage("nope", bundleId: testBundle, customer: "ana") } == "notFound")
    }

    @Test func aFailedRenewalQueuesABillingIssueMessage() async throws {
        let store = try await makeStore()
        _ = try await store.world(AppStore.defaultWorld).setSwitches(SessionSwitches(failRenewals: true, billingGracePeriod: true))
        let first = try await store.subscribe("cy")
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "cy").isEmpty)
        try await store.advance(days: 366)
        let messages = try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "cy")
        #expect(messages.map(\.reason) == [.billingIssue])
        #expect(messages.first?.originalTransactionId == first.originalTransactionId)
        #expect(messages.first?.createdDate == first.expiresDate)
        #expect(try await store.status("cy").status == .billingGracePeriod)
    }

    @Test func anExpiryWithWinBackOffersQueuesAWinBackMessage() async throws {
        let store = try await makeWinBackStore()
        let first = try await store.subscribe("di")
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: first.transactionId, enabled: false)
        try await store.advance(days: 366)
        let messages = try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "di")
        #expect(messages.map(\.reason) == [.winBackOffer])
        #expect(messages.first?.winBackOfferIds == ["winback.yearly"])
        #expect(try await store.status("di").renewalInfo.payload.eligibleWinBackOfferIds == ["winback.yearly"])
        // Without win-back offers in the group, an expiry queues nothing.
        let plain = try await makeStore()
        let other = try await plain.subscribe("di")
        _ = try await plain.world(AppStore.defaultWorld).setAutoRenew(transactionId: other.transactionId, enabled: false)
        try await plain.advance(days: 366)
        #expect(try await plain.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "di").isEmpty)
    }

    @Test func messagesWaitPerCustomerAppAndWorldInOrder() async throws {
        let store = try await makeStore()
        _ = try await store.createWorld("other")
        let generic = try await store.world(AppStore.defaultWorld).queueMessage(.generic, bundleId: testBundle, customer: "ana")
        let first = try await store.subscribe("ana")
        _ = try await store.world(AppStore.defaultWorld).requestPriceIncrease(transactionId: first.transactionId, newPrice: "44.99")
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana").map(\.reason) == [.generic, .priceIncreaseConsent])
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "ana").first?.id == generic.id)
        #expect(try await store.world(AppStore.defaultWorld).messages(bundleId: testBundle, customer: "bob").isEmpty)
        #expect(try await store.world("other").messages(bundleId: testBundle, customer: "ana").isEmpty)
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).messages(bundleId: "com.nope", customer: "ana") } == "appNotFound")
    }
}
