import Foundation
import StoreModel
import StoreNotifications
import StoreSigning
import StoreStorage
import StoreTestSupport
import Testing
@testable import StoreEngine

/// Server notifications end to end: emitted by the engine, delivered over real HTTP to a receiver
/// the test starts on loopback, retried on Apple's schedule on the world clock, recoverable from
/// Notification History.
@Suite("Server notifications", .serialized, .removesTemporaryFolders)
struct NotificationDeliveryTests {
    let world = AppStore.defaultWorld

    func caller(_ store: AppStore) -> ServerAPICaller {
        ServerAPICaller(keyId: "K", issuerId: "I", bundleId: notificationBundle, world: AppStore.defaultWorld)
    }

    func buy(_ store: AppStore, _ product: String, _ customer: String = "jane") async throws -> TransactionPayload {
        try await store.world(AppStore.defaultWorld).purchase(PurchaseRequest(bundleId: notificationBundle, productId: product, customer: customer)).transaction!.payload
    }

    func history(_ store: AppStore, _ body: [String: Any]) async throws -> [(payload: [String: Any], attempts: [NotificationSummary.SendAttempt])] {
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        var out: [(payload: [String: Any], attempts: [NotificationSummary.SendAttempt])] = []
        var token: String?
        repeat {
            let page = try await store.notificationHistory(
                body: try JSONSerialization.data(withJSONObject: body), paginationToken: token, caller: caller(store))
            for item in page.notificationHistory {
                out.append((try decodeNotification(item.signedPayload, verifier: verifier), item.sendAttempts))
            }
            token = page.hasMore ? page.paginationToken : nil
        } while token != nil
        return out
    }

    @Test("a lifecycle run sends Apple's types and subtypes, signed and verifiable")
    func lifecycleSequence() async throws {
        let store = try await makeNotificationStore(environment: .sandbox)
        let receiver = try await TestReceiver.start()
        let delivery = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 2, concurrency: 1))
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: notificationBundle)

        let monthly = try await buy(store, "test.monthly")
        try await delivery.drain()
        _ = try await store.advanceTime(world, byMs: 8 * dayMs)                      // the free week ends: renewal
        try await delivery.drain()
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: monthly.originalTransactionId, enabled: false)
        _ = try await store.advanceTime(world, byMs: 32 * dayMs)                     // the paid month ends
        try await delivery.drain()
        let seeds = try await buy(store, "test.seeds")
        let request = try await store.world(AppStore.defaultWorld).requestRefund(transactionId: seeds.transactionId, reason: "UNINTENDED_PURCHASE")
        _ = try await store.world(AppStore.defaultWorld).decideRefund(requestId: request.id, grant: false)
        let again = try await store.world(AppStore.defaultWorld).requestRefund(transactionId: seeds.transactionId, reason: "FULFILLMENT_ISSUE")
        _ = try await store.world(AppStore.defaultWorld).decideRefund(requestId: again.id, grant: true)
        _ = try await store.world(AppStore.defaultWorld).reverseRefund(transactionId: seeds.transactionId)
        let token = try await store.requestTestNotification(caller: caller(store)).testNotificationToken
        try await delivery.drain()

        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        let got = try receiver.notifications(verifier: verifier)
        #expect(got.map(name) == [
            "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
            "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "REFUND", "REFUND_REVERSED", "TEST",
        ])
        for payload in got {
            #expect(payload["version"] as? String == "2.0")
            #expect((payload["notificationUUID"] as? String).map { $0 == $0.lowercased() && UUID(uuidString: $0) != nil } == true)
            let data = payload["data"] as! [String: Any]
            #expect(data["bundleId"] as? String == notificationBundle)
            #expect(data["environment"] as? String == "Sandbox")
            #expect(data["appAppleId"] as? Int == 1_234_567_890)
        }
        let subscribed = got[0]["data"] as! [String: Any]
        #expect(subscribed["status"] as? Int == 1)
        #expect((subscribed["transactionInfo"] as? [String: Any])?["transactionId"] as? String == monthly.transactionId)
        #expect((subscribed["renewalInfo"] as? [String: Any])?["autoRenewStatus"] as? Int == 1)
        #expect((got[3]["data"] as! [String: Any])["status"] as? Int == 2)
        #expect((got[5]["data"] as! [String: Any])["consumptionRequestReason"] as? String == "UNINTENDED_PURCHASE")
        #expect((got[4]["data"] as! [String: Any])["renewalInfo"] == nil)
        let test = got.last!["data"] as! [String: Any]
        #expect(Set(test.keys) == ["appAppleId", "bundleId", "environment"])
        let status = try await store.testNotificationStatus(token: token, caller: caller(store))
        #expect(status.sendAttempts.map(\.sendAttemptResult) == ["SUCCESS"])
        #expect(try decodeNotification(status.signedPayload, verifier: verifier)["notificationUUID"] as? String
                == got.last!["notificationUUID"] as? String)
        await receiver.stop()
        await delivery.shutdown()
    }

    @Test("outage: a Production receiver down for a simulated week; Apple's retry schedule; history; recovery")
    func outage() async throws {
        let store = try await makeNotificationStore(environment: .production)
        let receiver = try await TestReceiver.start()
        let delivery = NotificationDeliveryService(store: store, configuration: .init(timeoutSeconds: 0.5))
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: notificationBundle, environment: "Production")
        let t0 = try await store.nowMs(world)

        _ = try await buy(store, "test.seeds")                     // delivered before the outage
        try await delivery.drain()
        #expect(receiver.received.withLock { $0.count } == 1)

        await receiver.stop()
        let yearly = try await buy(store, "test.yearly")           // SUBSCRIBED at t0
        try await delivery.drain()
        _ = try await store.advanceTime(world, byMs: dayMs)
        try await delivery.drain()
        _ = try await store.world(AppStore.defaultWorld).setAutoRenew(transactionId: yearly.transactionId, enabled: false)   // at t0 + 1 day
        for _ in 1...6 {
            try await delivery.drain()
            _ = try await store.advanceTime(world, byMs: dayMs)
        }
        try await delivery.drain()                                 // now t0 + 7 days

        let all = try await history(store, ["startDate": t0 - dayMs, "endDate": t0 + 30 * dayMs])
        #expect(all.map { name($0.payload) } == ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"])
        #expect(all[0].attempts.map(\.sendAttemptResult) == ["SUCCESS"])
        // Apple's schedule: 1, 12, 24, 48 and 72 hours after the previous attempt; six attempts at most.
        #expect(all[1].attempts.map(\.attemptDate) == [0, 1, 13, 37, 85, 157].map { t0 + $0 * hourMs })
        #expect(all[1].attempts.allSatisfy { $0.sendAttemptResult == "SOCKET_ISSUE" })
        #expect(all[2].attempts.map(\.attemptDate) == [0, 1, 13, 37, 85].map { t0 + dayMs + $0 * hourMs })
        let failures = try await history(store, ["startDate": t0 - dayMs, "endDate": t0 + 30 * dayMs, "onlyFailures": true])
        #expect(failures.map { $0.payload["notificationUUID"] as! String } == all.dropFirst().map { $0.payload["notificationUUID"] as! String })

        try await receiver.restart()                               // the receiver is back
        _ = try await store.advanceTime(world, byMs: dayMs)
        try await delivery.drain()
        let verifier = try JWSVerifier(rootCertificateDER: store.authority.rootDER)
        let got = try receiver.notifications(verifier: verifier)
        let states = try await store.world(AppStore.defaultWorld).notifications().map(\.sendAttempts)
        #expect(got.map(name) == ["ONE_TIME_CHARGE", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"], "\(states)")
        guard got.count == 2 else { await receiver.stop(); await delivery.shutdown(); return }
        // The retry carries the same notification: same UUID and content as history shows.
        #expect(got[1]["notificationUUID"] as? String == all[2].payload["notificationUUID"] as? String)
        #expect(got[1]["signedDate"] as? Int64 == all[2].payload["signedDate"] as? Int64)
        let after = try await history(store, ["startDate": t0 - dayMs, "endDate": t0 + 30 * dayMs, "onlyFailures": true])
        #expect(after.map { name($0.payload) } == ["SUBSCRIBED/INITIAL_BUY"])   // out of attempts: history is how to recover it
        let recovered = try await history(store, ["startDate": t0 - dayMs, "endDate": t0 + 30 * dayMs, "transactionId": yearly.transactionId,
                                                  "notificationType": NSNull()])
        #expect(recovered.count == 3)
        #expect(recovered[2].attempts.last?.sendAttemptResult == "SUCCESS")
        await receiver.stop()
        await delivery.shutdown()
    }

    @Test("Sandbox tries once; answers outside 200–206 are failures")
    func sandboxOnce() async throws {
        let store = try await makeNotificationStore(environment: .sandbox)
        let receiver = try await TestReceiver.start()
        receiver.status.withLock { $0 = 503 }
        let delivery = NotificationDeliveryService(store: store)
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: notificationBundle)
        let t0 = try await store.nowMs(world)
        _ = try await buy(store, "test.history")
        try await delivery.drain()
        _ = try await store.advanceTime(world, byMs: 7 * dayMs)
        try await delivery.drain()
        let rows = try await store.world(AppStore.defaultWorld).notifications()
        #expect(rows.count == 1)
        #expect(rows[0].sendAttempts == [.init(attemptDate: t0, sendAttemptResult: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")])
        #expect(rows[0].nextAttemptDate == nil && !rows[0].delivered)
        #expect(receiver.received.withLock { $0.count } == 1)
        receiver.status.withLock { $0 = 206 }
        _ = try await buy(store, "test.seeds")
        try await delivery.drain()
        #expect(try await store.world(AppStore.defaultWorld).notifications().last?.delivered == true)
        await receiver.stop()
        await delivery.shutdown()
    }

    @Test("history filters and Apple's errors")
    func historyErrors() async throws {
        let store = try await makeNotificationStore(environment: .sandbox)
        let c = caller(store)
        func code(_ body: [String: Any], token: String? = nil) async -> Int64? {
            do {
                _ = try await store.notificationHistory(body: try JSONSerialization.data(withJSONObject: body), paginationToken: token, caller: c)
                return nil
            } catch let error as ServerAPIError { return error.code } catch { return -1 }
        }
        let now = try await store.nowMs(world)
        #expect(await code(["endDate": now]) == 4_000_015)
        #expect(await code(["startDate": now - 1]) == 4_000_016)
        #expect(await code(["startDate": now, "endDate": now]) == 4_000_013)
        #expect(await code(["startDate": now - 200 * dayMs, "endDate": now]) == 4_000_012)
        #expect(await code(["startDate": now - 1, "endDate": now, "notificationType": "SUBSCRIBED", "transactionId": "1"]) == 4_000_019)
        #expect(await code(["startDate": now - 1, "endDate": now, "notificationType": "REFUND", "notificationSubtype": "UPGRADE"]) == 4_000_018)
        #expect(await code(["startDate": now - 1, "endDate": now, "notificationSubtype": "UPGRADE"]) == 4_000_018)
        #expect(await code(["startDate": now - 1, "endDate": now, "notificationType": "NOPE"]) == 4_000_018)
        #expect(await code(["startDate": now - 1, "endDate": now], token: "garbage") == 4_000_014)
        #expect(await code(["startDate": now - 1, "endDate": now, "transactionId": "99"]) == 4_040_010)
        #expect(await code(["startDate": now - 1, "endDate": now + dayMs]) == nil)
        // No URL: no test notification (4040007); an unknown token: 4040008.
        await #expect(throws: ServerAPIError.serverNotificationURLNotFound) { try await store.requestTestNotification(caller: c) }
        await #expect(throws: ServerAPIError.testNotificationNotFound) { try await store.testNotificationStatus(token: UUID().uuidString, caller: c) }

        // Pages of 20 with a token, filtered by type and subtype.
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/none", bundleId: notificationBundle)
        for index in 0..<25 { _ = try await buy(store, "test.seeds", "c\(index)") }
        _ = try await buy(store, "test.yearly", "sub")
        let body: [String: Any] = ["startDate": now - 1, "endDate": now + 1]
        let first = try await store.notificationHistory(body: try JSONSerialization.data(withJSONObject: body), paginationToken: nil, caller: c)
        #expect(first.notificationHistory.count == 20 && first.hasMore && first.paginationToken != nil)
        let second = try await store.notificationHistory(body: try JSONSerialization.data(withJSONObject: body), paginationToken: first.paginationToken, caller: c)
        #expect(second.notificationHistory.count == 6 && !second.hasMore && second.paginationToken == nil)
        let typed = try await history(store, ["startDate": now - 1, "endDate": now + 1, "notificationType": "SUBSCRIBED", "notificationSubtype": "INITIAL_BUY"])
        #expect(typed.count == 1)
        let none = try await history(store, ["startDate": now - 1, "endDate": now + 1, "notificationType": "SUBSCRIBED", "notificationSubtype": "RESUBSCRIBE"])
        #expect(none.isEmpty)
    }

    @Test("no URL, no notification; the outbox survives reopening the store")
    func durableOutbox() async throws {
        let path = TemporaryFolder.make("notify").appendingPathComponent("store.sqlite").path
        let store = try await makeNotificationStore(environment: .production, path: path)
        _ = try await buy(store, "test.seeds", "early")
        #expect(try await store.world(AppStore.defaultWorld).notifications().isEmpty)
        _ = try await store.world(AppStore.defaultWorld).setNotificationURL("http://127.0.0.1:9/none", bundleId: notificationBundle, environment: "Production")
        _ = try await buy(store, "test.seeds", "late")
        await store.shutdown()
        await store.close()

        let reopened = try await makeNotificationStore(environment: .production, path: path)
        let receiver = try await TestReceiver.start()
        _ = try await reopened.world(AppStore.defaultWorld).setNotificationURL(receiver.url, bundleId: notificationBundle, environment: "Production")
        let delivery = NotificationDeliveryService(store: reopened)
        try await delivery.drain()
        #expect(receiver.received.withLock { $0.count } == 1)
        #expect(try await reopened.world(AppStore.defaultWorld).notifications().map(\.delivered) == [true])
        await receiver.stop()
        await delivery.shutdown()
    }
}
