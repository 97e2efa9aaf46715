import Foundation
import StoreShared
import StoreTestSupport
import Testing
@testable import SubscriptionBackend

/// The backend reads time from the clock it is given, never from the system: customer info's
/// `requestDate`, events and refusals all follow a clock the test moves by hand.
@Suite struct BackendClockTests {
    let user = "6f1c1d4e-1111-4a6b-9c1d-5e8f000000c1"

    @Test(arguments: BackendTestEngine.all) func customerInfoEventsAndRefusalsFollowTheInjectedClock(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let t0 = SignedDataKit.start, day = SignedDataKit.day
        let clock = ManualWallClock(nowMs: t0 + day)
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock)) { test in
            let tx = kit.transaction(id: "1", original: "1", purchase: t0, expires: t0 + 30 * day, token: user)
            let n = try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: tx,
                                         renewal: kit.renewal(original: "1", signed: t0))
            #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) == .applied)
            #expect(try await test.backend.customerInfo(appUserId: user)?.requestDate == t0 + day)
            clock.advance(byMs: 5_000)
            let info = try #require(try await test.backend.customerInfo(appUserId: user))
            #expect(info.requestDate == t0 + day + 5_000 && info.entitlements["plus"]?.isActive == true)

            // Past the period's end by the injected clock alone: no longer active.
            clock.advance(byMs: 40 * day)
            #expect(try await test.backend.customerInfo(appUserId: user)?.entitlements["plus"]?.isActive == false)

            _ = try? await test.backend.receiveNotification(bundleId: "com.unknown", signedPayload: n)
            #expect(test.backend.rejections.all.last?.atMs == t0 + 41 * day + 5_000)
        }
    }
}
