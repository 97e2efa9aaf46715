import Foundation
@testable import StoreEngine
import StoreModel
import StoreSigning
import StoreTestSupport
import Testing

/// Every clock read goes through the store's injected clock, and two stores in one process share
/// no state: the Server API door, its rate limiter, key creation, and the per-world tables.
@Suite(.removesTemporaryFolders) struct InjectedClockTests {
    @Test func tokensAreCheckedAtTheStoreClocksTime() async throws {
        let clock = TestClock()  // 2026-01-01, not today
        let store = try await makeStore(clock: clock)
        let signer = try APITokenSigner(generated: try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle))
        let gateway = ServerAPIGateway(store: store)
        // A token made at the store's time is good; one made at the machine's time is not (yet).
        let caller = try await gateway.authenticate(token: signer.token(now: clock.now()))
        #expect(caller.bundleId == testBundle)
        await #expect(throws: ServerAPIAuthFailure.self) {
            try await gateway.authenticate(token: signer.token(now: Date()))
        }
        // Two hours on the store's clock: the token made before has expired.
        let old = signer.token(now: clock.now())
        clock.advance(2 * 3600)
        await #expect(throws: ServerAPIAuthFailure.token(.expired)) { try await gateway.authenticate(token: old) }
        await store.shutdown()
    }

    @Test func theRateLimitWindowFollowsTheStoreClock() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let signer = try APITokenSigner(generated: try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle))
        let gateway = ServerAPIGateway(store: store, rateLimitPerMinute: 1)
        _ = try await gateway.authenticate(token: signer.token(now: clock.now()))
        await #expect(throws: ServerAPIError.rateLimitExceeded) {
            try await gateway.authenticate(token: signer.token(now: clock.now()))
        }
        clock.advance(61)
        _ = try await gateway.authenticate(token: signer.token(now: clock.now()))
        await store.shutdown()
    }

    @Test func keysAreDatedByTheStoreClock() async throws {
        let clock = TestClock()
        let store = try await makeStore(clock: clock)
        let key = try await store.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle)
        let listed = try #require(try await store.world(AppStore.defaultWorld).apiKeys().first { $0.keyId == key.key.keyId })
        #expect(listed.createdMs == clock.now().milliseconds)
        await store.shutdown()
    }

    @Test func twoStoresInOneProcessShareNothing() async throws {
        let a = try await makeStore(), b = try await makeStore()
        let worldA = try await a.loadedWorld(AppStore.defaultWorld), worldB = try await b.loadedWorld(AppStore.defaultWorld)
        // A claim held in one store's world does not block the other's.
        #expect(await worldA.claim("nonce-1"))
        #expect(await !worldA.claim("nonce-1"))
        #expect(await worldB.claim("nonce-1"))
        // Notification URLs and key revocations stay with their store.
        _ = try await a.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/a", bundleId: testBundle)
        #expect(try await a.notificationURL(bundleId: testBundle, environment: "Sandbox", world: AppStore.defaultWorld) == "http://127.0.0.1:9/a")
        #expect(try await b.notificationURL(bundleId: testBundle, environment: "Sandbox", world: AppStore.defaultWorld) == nil)
        let key = try await a.world(AppStore.defaultWorld).createAPIKey(bundleId: testBundle)
        try await a.world(AppStore.defaultWorld).revokeAPIKey(key.key.keyId)
        #expect(a.revokedKeys.isRevoked(key.key.keyId))
        #expect(!b.revokedKeys.isRevoked(key.key.keyId))
        await a.shutdown()
        await b.shutdown()
    }
}
