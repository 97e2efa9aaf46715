import StoreEngine
import StoreTestSupport
import Testing

/// The rule from "What's new with in-app purchase" (WWDC22): an original-API `applicationUsername`
/// that is a UUID becomes the transaction's `appAccountToken`; any other value does not.
@Suite struct ApplicationUsernameTests {
    @Test func aUUIDBecomesTheAppAccountToken() {
        #expect(ApplicationUsername.appAccountToken(for: "7E3FB20B-4CDB-47CC-936D-99D65F608138") == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(ApplicationUsername.appAccountToken(for: "7e3fb20b-4cdb-47cc-936d-99d65f608138") == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    }

    @Test func anythingElseSetsNothing() {
        for name in ["jane@example.com", "", "7E3FB20B-4CDB-47CC-936D", "{7E3FB20B-4CDB-47CC-936D-99D65F608138}", "  7E3FB20B-4CDB-47CC-936D-99D65F608138"] {
            #expect(ApplicationUsername.appAccountToken(for: name) == nil, "\(name)")
        }
        #expect(ApplicationUsername.appAccountToken(for: nil) == nil)
    }
}

/// The rule applied to a purchase: the StoreKit 1 field reaches the signed transaction only as a
/// UUID, and an explicit `appAccountToken` wins.
@Suite(.removesTemporaryFolders) struct ApplicationUsernamePurchaseTests {
    func buy(_ store: AppStore, _ customer: String, token: String? = nil, username: String?) async throws -> String? {
        var request = PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: customer, appAccountToken: token)
        request.applicationUsername = username
        return try await store.world(AppStore.defaultWorld).purchase(request).transaction?.payload.appAccountToken
    }

    @Test func aUUIDUsernameSetsTheTokenAndAnythingElseDoesNot() async throws {
        let store = try await makeStore()
        #expect(try await buy(store, "u1", username: "7E3FB20B-4CDB-47CC-936D-99D65F608138") == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(try await buy(store, "u2", username: "jane@example.com") == nil)
        #expect(try await buy(store, "u3", token: "A1B2C3D4-0000-4000-8000-00000000ABCD", username: "7E3FB20B-4CDB-47CC-936D-99D65F608138")
                == "a1b2c3d4-0000-4000-8000-00000000abcd")
    }

    /// A purchase waiting for Ask to Buy keeps what the device asked for: approved after a
    /// restart, it carries the token the StoreKit 1 `applicationUsername` gave it.
    @Test func anAskToBuyApprovalAfterARestartKeepsTheToken() async throws {
        let path = databasePath()
        let clock = TestClock()
        let first = try await makeStore(path: path, clock: clock)
        let world = first.world(AppStore.defaultWorld)
        _ = try await world.setSwitches(SessionSwitches(askToBuy: true))
        var request = PurchaseRequest(bundleId: testBundle, productId: "test.seeds", customer: "kid")
        request.applicationUsername = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        let id = try #require(try await world.purchase(request).pendingId)
        await first.close()

        let second = try await makeStore(path: path, clock: clock)
        let approved = try await second.world(AppStore.defaultWorld).answerAskToBuy(id, approve: true)
        #expect(approved?.transaction?.payload.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        await second.close()
    }
}
