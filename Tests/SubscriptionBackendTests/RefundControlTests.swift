import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import StoreShared
import StoreSigning
import StoreTestSupport
import Synchronization
import Testing
@testable import SubscriptionBackend

/// Refund control against a Send Consumption Information written in the test: what is sent for
/// each policy, that nothing is sent without the customer's consent ("If not, don't respond to the
/// CONSUMPTION_REQUEST notification", Apple's `customerConsented`), retries until Apple's 12 hours
/// end, and the App Store's decision counted.
@Suite struct RefundControlTests {
    @Test func eachPolicySendsItsPreference() {
        let due = SignedDataKit.start + RefundControlRules.answerWindowMs
        func body(_ policy: RefundControlConfiguration.Policy) -> RefundControlRules.Body? {
            if case .send(let body) = RefundControlRules.decide(.init(policy: policy), consented: true, hasAPIKey: true,
                                                                 nowMs: SignedDataKit.start, deadlineMs: due) { return body }
            return nil
        }
        #expect(body(.preferRefund)?.refundPreference == "GRANT_FULL")
        #expect(body(.preferDecline)?.refundPreference == "DECLINE")
        #expect(body(.dataOnly) != nil && body(.dataOnly)?.refundPreference == nil)
        #expect(body(.off) == nil)
        // Apple's ConsumptionRequest: customerConsented true, delivery status, sample content; no
        // consumptionPercentage (an error for auto-renewable subscriptions, unknown otherwise).
        let json = String(decoding: body(.preferDecline)!.json(), as: UTF8.self)
        #expect(json == #"{"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":false}"#)
        let noConsent = RefundControlRules.decide(.init(policy: .preferRefund), consented: false, hasAPIKey: true, nowMs: 0, deadlineMs: due)
        #expect(noConsent == .close(state: "noConsent", reason: "the customer's consent is not recorded (Apple: without consent, don't respond)"))
        if case .close(let state, _) = RefundControlRules.decide(.init(policy: .preferRefund), consented: true, hasAPIKey: true,
                                                                 nowMs: due + 1, deadlineMs: due) {
            #expect(state == "expired")
        } else {
            Issue.record("a request past its 12 hours was answered")
        }
        // Retries double from 30 s, and none is scheduled past the deadline.
        #expect(RefundControlRules.nextAttempt(afterAttempt: 1, nowMs: 0, deadlineMs: due) == 30_000)
        #expect(RefundControlRules.nextAttempt(afterAttempt: 3, nowMs: 0, deadlineMs: due) == 120_000)
        #expect(RefundControlRules.nextAttempt(afterAttempt: 1, nowMs: due - 10_000, deadlineMs: due) == nil)
    }

    @Test func aConfigurationWithAPolicyNeedsAnAPIKey() throws {
        var app = AppConfiguration(bundleId: "com.example.refunds", environments: ["Sandbox"])
        app.refundControl = .init(policy: .preferDecline)
        #expect(throws: BackendConfigurationError.self) { try BackendConfiguration(apps: [app]).validate() }
        let json = #"{"apps":[{"bundleId":"a","refundControl":{"policy":"preferSomething"}}]}"#
        let folder = TemporaryFolder.make("refund-config")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("backend.json")
        try json.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try BackendConfiguration.load(path: file.path)
            Issue.record("an unknown policy was accepted")
        } catch let error as BackendConfigurationError {
            #expect(error.description.contains("$.apps[0].refundControl.policy"), "\(error)")
        }
    }

    @Test(arguments: BackendTestEngine.all) func aRefundRequestIsAnsweredByPolicyRetriedAndItsDecisionCounted(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let t0 = SignedDataKit.start
        let answers = Mutex<[HTTPResponse.Status]>([.serviceUnavailable])  // the first attempt fails, then 202
        let sent = Mutex<[(String, String)]>([])
        let router = Router()
        router.put("/inApps/v2/transactions/consumption/:id") { request, context in
            let body = try await request.body.collect(upTo: 65_536)
            sent.withLock { $0.append((context.parameters.get("id") ?? "", String(buffer: body))) }
            let status = answers.withLock { $0.isEmpty ? .accepted : $0.removeFirst() }
            return Response(status: status)
        }
        let apple = try await serveOnLoopback(router)
        let folder = TemporaryFolder.make("refund-control")
        let generated = APIKeyFactory.generate(bundleId: kit.bundleId)
        let p8 = folder.appendingPathComponent("key.p8")
        try generated.privateKeyP8.write(to: p8, atomically: true, encoding: .utf8)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let clock = ManualWallClock(nowMs: t0 + 1_000)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine, clock: .manual(clock), configure: { configuration in
                configuration.apps[0].apiKey = APIKeyConfiguration(privateKeyFile: p8.path, keyId: generated.key.keyId, issuerId: generated.key.issuerId)
                configuration.apps[0].apiBaseURL = "http://127.0.0.1:\(apple.port)"
                configuration.apps[0].refundControl = .init(policy: .preferDecline)
            }) { test in
                let responder = RefundResponder(backend: test.backend, http: http)
                // Two customers ask for a refund; only ann consented.
                for (user, id) in [("ann", "1001"), ("bob", "2001")] {
                    let tx = kit.transaction(id: id, original: id, purchase: t0, expires: t0 + 30 * SignedDataKit.day)
                    _ = try await test.backend.receiveTransaction(appUserId: user, signedTransaction: try kit.sign(tx))
                    let request = try kit.notification("CONSUMPTION_REQUEST", signed: t0 + 500, transaction: tx, renewal: nil)
                    #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: request) == .applied)
                }
                _ = try await test.backend.recordConsent(appUserId: "ann", consented: true)

                try await responder.round()
                var report = try await test.backend.refundRequests(limit: 10)
                let ann = try #require(report.requests.first { $0.transactionId == "1001" })
                let bob = try #require(report.requests.first { $0.transactionId == "2001" })
                #expect(ann.state == "pending" && ann.attempts == 1 && ann.lastError?.contains("503") == true)
                #expect(bob.state == "noConsent" && bob.attempts == 0)
                #expect(sent.withLock { $0.map(\.0) } == ["1001"], "nothing is sent for a customer without consent")

                // Not due again before 30 s; then answered.
                try await responder.round()
                #expect(sent.withLock { $0.count } == 1)
                clock.advance(byMs: 31_000)
                try await responder.round()
                report = try await test.backend.refundRequests(limit: 10)
                let answered = try #require(report.requests.first { $0.transactionId == "1001" })
                #expect(answered.state == "answered" && answered.attempts == 2 && answered.refundPreference == "DECLINE")
                let body = try JSONSerialization.jsonObject(with: Data(sent.withLock { $0.last!.1 }.utf8)) as? [String: Any]
                #expect(body?["customerConsented"] as? Bool == true && body?["refundPreference"] as? String == "DECLINE"
                        && body?["deliveryStatus"] as? String == "DELIVERED")
                #expect(try await test.eventTypes("ann").suffix(2) == ["REFUND_REQUESTED", "CONSUMPTION_REQUEST_ANSWERED"])
                #expect(try await test.eventTypes("bob").last == "REFUND_REQUESTED")

                // The App Store decides: ann's declined, bob's granted (his transaction refunded).
                let annTx = kit.transaction(id: "1001", original: "1001", purchase: t0, expires: t0 + 30 * SignedDataKit.day)
                let declined = try kit.notification("REFUND_DECLINED", signed: t0 + 60_000, transaction: annTx, renewal: nil)
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: declined)
                let refunded = kit.transaction(id: "2001", original: "2001", purchase: t0, expires: t0 + 30 * SignedDataKit.day,
                                               signed: t0 + 70_000, revoked: t0 + 70_000)
                let refund = try kit.notification("REFUND", signed: t0 + 70_000, transaction: refunded, renewal: nil)
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: refund)
                report = try await test.backend.refundRequests(limit: 10)
                #expect(report.counts == .init(requested: 2, answered: 1, granted: 1, declined: 1))
                let overview = try await test.backend.overview(environment: nil)
                #expect(overview.refundRequests == report.counts)
                // Nothing more is sent once answered.
                clock.advance(byMs: 3_600_000)
                try await responder.round()
                #expect(sent.withLock { $0.count } == 2)
            }
        } catch {
            Issue.record(error)
        }
        try await http.shutdown()
        await apple.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aRefusedAnswerIsNotRetriedAndALateOneNotStarted() async throws {
        let kit = try SignedDataKit()
        let t0 = SignedDataKit.start
        let calls = Mutex(0)
        let router = Router()
        router.put("/inApps/v2/transactions/consumption/:id") { _, _ in
            calls.withLock { $0 += 1 }
            return Response(status: .badRequest, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"errorCode":4000006,"errorMessage":"Invalid transaction id."}"#)))
        }
        let apple = try await serveOnLoopback(router)
        let folder = TemporaryFolder.make("refund-refused")
        let generated = APIKeyFactory.generate(bundleId: kit.bundleId)
        let p8 = folder.appendingPathComponent("key.p8")
        try generated.privateKeyP8.write(to: p8, atomically: true, encoding: .utf8)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        let clock = ManualWallClock(nowMs: t0 + 1_000)
        do {
            try await TestBackend.with(trusting: [kit.authority.rootDER], clock: .manual(clock), configure: { configuration in
                configuration.apps[0].apiKey = APIKeyConfiguration(privateKeyFile: p8.path, keyId: generated.key.keyId, issuerId: generated.key.issuerId)
                configuration.apps[0].apiBaseURL = "http://127.0.0.1:\(apple.port)"
                configuration.apps[0].refundControl = .init(policy: .preferRefund, consent: .all)
            }) { test in
                let responder = RefundResponder(backend: test.backend, http: http)
                let tx = kit.transaction(id: "3001", original: "3001", purchase: t0, expires: t0 + 30 * SignedDataKit.day)
                let request = try kit.notification("CONSUMPTION_REQUEST", signed: t0 + 500, transaction: tx, renewal: nil)
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: request)
                let late = kit.transaction(id: "3002", original: "3002", purchase: t0, expires: t0 + 30 * SignedDataKit.day)
                let old = try kit.notification("CONSUMPTION_REQUEST", signed: t0 - RefundControlRules.answerWindowMs - 1_000, transaction: late, renewal: nil)
                _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: old)
                try await responder.round()
                clock.advance(byMs: 3_600_000)
                try await responder.round()
                let report = try await test.backend.refundRequests(limit: 10)
                let refused = try #require(report.requests.first { $0.transactionId == "3001" })
                #expect(refused.state == "failed" && refused.attempts == 1 && refused.lastError?.contains("4000006") == true)
                #expect(report.requests.first { $0.transactionId == "3002" }?.state == "expired")
                #expect(calls.withLock { $0 } == 1, "a 400 is not tried again; a request past its 12 hours is not tried at all")
            }
        } catch {
            Issue.record(error)
        }
        try await http.shutdown()
        await apple.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
