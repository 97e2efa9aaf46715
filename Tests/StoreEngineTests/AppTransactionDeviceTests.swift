import Foundation
import Testing
import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport

/// Issue 16 item 7: `deviceVerification` is "the SHA-384 hash of the lowercased nonce followed by
/// the lowercased device verification identifier" (Apple, `AppTransaction.deviceVerification`),
/// and `preorderDate` is a customer setting of the Transaction Manager.
@Suite(.removesTemporaryFolders) struct AppTransactionDeviceTests {
    @Test func deviceVerificationIsSHA384OfTheLowercasedNonceThenDeviceID() {
        // Expected value from Python's hashlib, not from the code under test.
        #expect(DeviceVerification.value(nonce: "A1B2C3D4-0000-4000-8000-00000000000A", deviceId: "5D0C8C59-9A3E-4F49-8B1C-7A4F3C2E9D10")
            == "UfgJ71lZiTLFBciv2Mc7W7G8k0EV/2CVXsFs7+dk7xf6PpEYykAXa6yNcPvZ/EVB")
        let ana = DeviceVerification.identifier(world: "default", customer: "ana")
        #expect(UUID(uuidString: ana) != nil && ana == ana.lowercased())
        #expect(ana == DeviceVerification.identifier(world: "default", customer: "ana"))
        #expect(ana != DeviceVerification.identifier(world: "default", customer: "bob"))
        #expect(ana != DeviceVerification.identifier(world: "other", customer: "ana"))
    }

    @Test func appTransactionsCarryTheNonceAndTheCustomersVerification() async throws {
        let store = try await makeStore()
        let first = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "ana").payload
        let second = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "ana").payload
        let device = try await store.world(AppStore.defaultWorld).deviceVerificationID(customer: "ana")
        for payload in [first, second] {
            let nonce = try #require(payload.deviceVerificationNonce)
            #expect(payload.deviceVerification == DeviceVerification.value(nonce: nonce, deviceId: device))
        }
        #expect(first.deviceVerificationNonce != second.deviceVerificationNonce)
    }

    @Test func preorderDateIsSetReadBackAndCleared() async throws {
        let store = try await makeStore()
        let original = try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "ana").payload
        #expect(original.preorderDate == nil)
        let preordered = original.originalPurchaseDate - 10 * 86_400_000
        _ = try await store.world(AppStore.defaultWorld).updateAppTransaction(bundleId: testBundle, customer: "ana", change: AppTransactionChange(preorderDate: preordered))
        #expect(try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "ana").payload.preorderDate == preordered)
        #expect(try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "bob").payload.preorderDate == nil)
        let late = AppTransactionChange(preorderDate: original.originalPurchaseDate + 1)
        #expect(await storeCode { _ = try await store.world(AppStore.defaultWorld).updateAppTransaction(bundleId: testBundle, customer: "ana", change: late) } == "unprocessableRequest")
        _ = try await store.world(AppStore.defaultWorld).updateAppTransaction(bundleId: testBundle, customer: "ana", change: AppTransactionChange(preorderDate: 0))
        #expect(try await store.world(AppStore.defaultWorld).appTransaction(bundleId: testBundle, customer: "ana").payload.preorderDate == nil)
    }
}
