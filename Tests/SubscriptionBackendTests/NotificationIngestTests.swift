import Foundation
import StoreTestSupport
import Testing
@testable import SubscriptionBackend

/// Notifications through the backend's real checks and SQLite file: what is accepted changes
/// customer info and makes events once; what is refused leaves no trace.
@Suite struct NotificationIngestTests {
    let user = "6f1c1d4e-1111-4a6b-9c1d-5e8f00000001"
    let day = SignedDataKit.day
    let t0 = SignedDataKit.start

    @Test(arguments: BackendTestEngine.all) func purchaseMakesAnActiveEntitlementAndOneEvent(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let tx = kit.transaction(id: "1", original: "1", purchase: t0, expires: t0 + 30 * day, token: user)
            let n = try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: tx,
                                         renewal: kit.renewal(original: "1", signed: t0))
            #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) == .applied)
            #expect(try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) == .duplicate)
            let info = try #require(try await test.backend.customerInfo(appUserId: user))
            let plus = try #require(info.entitlements["plus"])
            #expect(plus.isActive && plus.willRenew && plus.productId == "plus.monthly" && plus.expiresDate == t0 + 30 * day)
            #expect(plus.periodType == "normal" && plus.environment == "Sandbox" && plus.ownershipType == "PURCHASED")
            #expect(info.subscriptions.map(\.status) == [1])
            #expect(try await test.eventTypes(user) == ["INITIAL_PURCHASE"])
        }
    }

    @Test(arguments: BackendTestEngine.all) func refusedDataIsStoredNowhere(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let foreign = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let tx = kit.transaction(id: "9", original: "9", purchase: t0, expires: t0 + day, token: user)
            let cases: [(String, String)] = [
                ("foreign root", try foreign.notification("SUBSCRIBED", signed: t0, transaction: tx, renewal: nil)),
                ("wrong bundle", try kit.notification("SUBSCRIBED", signed: t0, transaction: kit.transaction(
                    id: "9", original: "9", purchase: t0, expires: t0 + day, token: user, bundleId: "com.other"),
                    renewal: nil, bundleId: "com.other")),
                ("wrong environment", try kit.notification("SUBSCRIBED", signed: t0, transaction: kit.transaction(
                    id: "9", original: "9", purchase: t0, expires: t0 + day, token: user, environment: "Production"),
                    renewal: nil, environment: "Production", appAppleId: nil)),
                ("tampered", Self.tamper(try kit.notification("SUBSCRIBED", signed: t0, transaction: tx, renewal: nil))),
            ]
            for (label, payload) in cases {
                await #expect(throws: SignedDataRejection.self, "\(label)") {
                    try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: payload)
                }
            }
            // A genuine notification carrying a transaction signed by another root is refused whole.
            var data: [String: Any] = ["bundleId": kit.bundleId, "environment": "Sandbox"]
            data["signedTransactionInfo"] = try foreign.sign(tx)
            let mixed = try kit.sign(["notificationType": "SUBSCRIBED", "notificationUUID": UUID().uuidString.lowercased(),
                                      "signedDate": t0, "data": data])
            await #expect(throws: SignedDataRejection.self) {
                try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: mixed)
            }
            #expect(try await test.backend.customerInfo(appUserId: user) == nil)
            #expect(try await test.backend.events(appUserId: nil, limit: 100).isEmpty)
            #expect(try await test.backend.database.notificationCount() == 0)
            #expect(test.backend.rejections.all.count == cases.count + 1)
        }
    }

    /// Changes one character of the payload segment, keeping the signature.
    static func tamper(_ jws: String) -> String {
        var parts = jws.split(separator: ".").map(String.init)
        var payload = Array(parts[1])
        payload[10] = payload[10] == "A" ? "B" : "A"
        parts[1] = String(payload)
        return parts.joined(separator: ".")
    }

    /// A subscription's life as notifications: trial, conversion, cancel, billing retry with
    /// grace, recovery, expiry, then a refund.
    func lifecycle(_ kit: SignedDataKit) throws -> [String] {
        let d = day
        var out: [String] = []
        let t1 = kit.transaction(id: "1", original: "1", purchase: t0, expires: t0 + 7 * d, token: user, trial: true)
        out.append(try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0, transaction: t1,
                                        renewal: kit.renewal(original: "1", signed: t0)))
        let t2 = kit.transaction(id: "2", original: "1", purchase: t0 + 7 * d, expires: t0 + 37 * d, token: user, reason: "RENEWAL")
        out.append(try kit.notification("DID_RENEW", signed: t0 + 7 * d, transaction: t2, renewal: kit.renewal(original: "1", signed: t0 + 7 * d)))
        out.append(try kit.notification("DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", signed: t0 + 37 * d, transaction: t2,
                                        renewal: kit.renewal(original: "1", signed: t0 + 37 * d, retry: true, grace: t0 + 53 * d, intent: 2)))
        let t3 = kit.transaction(id: "3", original: "1", purchase: t0 + 40 * d, expires: t0 + 70 * d, token: user, reason: "RENEWAL")
        out.append(try kit.notification("DID_RENEW", subtype: "BILLING_RECOVERY", signed: t0 + 40 * d, transaction: t3,
                                        renewal: kit.renewal(original: "1", signed: t0 + 40 * d)))
        out.append(try kit.notification("DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", signed: t0 + 50 * d,
                                        transaction: t3, renewal: kit.renewal(original: "1", autoRenew: false, signed: t0 + 50 * d)))
        out.append(try kit.notification("EXPIRED", subtype: "VOLUNTARY", signed: t0 + 70 * d, transaction: t3,
                                        renewal: kit.renewal(original: "1", autoRenew: false, signed: t0 + 70 * d, intent: 1)))
        let coins = kit.transaction(id: "4", original: "4", product: "lifetime", purchase: t0 + 71 * d, expires: nil,
                                    type: "Non-Consumable", token: user)
        out.append(try kit.notification("ONE_TIME_CHARGE", signed: t0 + 71 * d, transaction: coins, renewal: nil))
        var refunded = coins
        refunded["revocationDate"] = t0 + 72 * d
        refunded["signedDate"] = t0 + 72 * d
        out.append(try kit.notification("REFUND", signed: t0 + 72 * d, transaction: refunded, renewal: nil))
        return out
    }

    @Test(arguments: BackendTestEngine.all) func lifecycleEventsInOrder(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            for n in try lifecycle(kit) { _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) }
            #expect(try await test.eventTypes(user) == [
                "TRIAL_STARTED", "TRIAL_CONVERTED", "BILLING_ISSUE", "RENEWAL", "BILLING_RECOVERED", "CANCELLATION",
                "EXPIRATION", "NON_RENEWING_PURCHASE", "REFUND",
            ])
            let info = try #require(try await test.backend.customerInfo(appUserId: user))
            #expect(info.entitlements["plus"]?.isActive == false)
            #expect(info.entitlements["lifetime"]?.isActive == false)
            #expect(info.nonSubscriptions.map(\.revocationDate) == [t0 + 72 * day])
        }
    }

    @Test(arguments: BackendTestEngine.all) func shuffledAndDuplicatedNotificationsReachTheSameState(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let notifications = try lifecycle(kit)
        let ordered = try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            for n in notifications { _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) }
            return try #require(try await test.backend.customerInfo(appUserId: user))
        }
        var generator = SeededGenerator(seed: 14)
        for round in 0..<3 {
            let replay = (notifications + notifications).shuffled(using: &generator)
            let shuffled = try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
                for n in replay { _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) }
                return try #require(try await test.backend.customerInfo(appUserId: user))
            }
            #expect(Self.comparable(shuffled) == Self.comparable(ordered), "round \(round)")
        }
    }

    /// The same replay, every notification at once: concurrent requests share transactions
    /// (`IngestBatcher`), and each is still applied once.
    @Test(arguments: BackendTestEngine.all) func concurrentShuffledAndDuplicatedNotificationsReachTheSameState(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        let notifications = try lifecycle(kit)
        let ordered = try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            for n in notifications { _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: n) }
            return try #require(try await test.backend.customerInfo(appUserId: user))
        }
        var generator = SeededGenerator(seed: 33)
        for round in 0..<3 {
            let replay = (notifications + notifications).shuffled(using: &generator)
            let (info, outcomes) = try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
                let backend = test.backend, bundleId = kit.bundleId
                let outcomes = try await withThrowingTaskGroup(of: SubscriptionBackend.Outcome.self) { group in
                    for n in replay { group.addTask { try await backend.receiveNotification(bundleId: bundleId, signedPayload: n) } }
                    return try await group.reduce(into: [SubscriptionBackend.Outcome]()) { $0.append($1) }
                }
                return (try #require(try await test.backend.customerInfo(appUserId: user)), outcomes)
            }
            #expect(outcomes.filter { $0 == .applied }.count == notifications.count, "round \(round): each applied once")
            #expect(Self.comparable(info) == Self.comparable(ordered), "round \(round)")
        }
    }

    /// Writes queued behind a batch commit together; one that fails rolls back alone (what it wrote
    /// before failing included) and the others commit.
    @Test(arguments: BackendTestEngine.all) func queuedWritesShareOneTransactionAndAFailingOneFailsAlone(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let database = test.backend.database
            let batcher = IngestBatcher(database: database)
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            let (entered, enter) = AsyncStream.makeStream(of: Void.self)
            let first = Task {
                try await batcher.write { store in
                    enter.yield()
                    for await _ in gate { break }
                    store.insert(CustomerRow(appUserId: "first", firstSeenMs: 1))
                }
            }
            for await _ in entered { break }
            struct Refused: Error {}
            let writes = Task {
                await withTaskGroup(of: (Int, Bool).self) { group in
                    for i in 0..<49 {
                        group.addTask {
                            do {
                                try await batcher.write { store in
                                    store.insert(CustomerRow(appUserId: "c\(i)", firstSeenMs: 1))
                                    if i == 20 { throw Refused() }
                                }
                                return (i, true)
                            } catch {
                                return (i, false)
                            }
                        }
                    }
                    return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
                }
            }
            while batcher.queued < 49 { await Task.yield() }
            open.yield()
            try await first.value
            let results = await writes.value
            #expect(results.filter { !$0.value }.map(\.key) == [20])
            #expect(batcher.batches == 2, "the 49 queued writes commit in one transaction")
            let present = try await database.write { store in
                var present: Set<String> = []
                for name in ["first"] + (0..<49).map({ "c\($0)" }) where try await store.customerExists(name) { present.insert(name) }
                return present
            }
            #expect(present.contains("first"))
            #expect(!present.contains("c20"), "the failing write's own insert is rolled back")
            #expect(present.count == 49, "every other write committed")
        }
    }

    /// Customer info without the fields that depend on when the test ran.
    static func comparable(_ info: CustomerInfo) -> CustomerInfo {
        var copy = info
        copy.firstSeen = 0
        copy.requestDate = 0
        return copy
    }

    /// Events of a subscription the backend learns before it knows its customer get the customer
    /// once the app posts the transaction: those already stored, and those made earlier in the
    /// same batch.
    @Test(arguments: BackendTestEngine.all) func eventsMadeBeforeTheLinkGetTheCustomer(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let backend = test.backend
            func subscribed(_ original: String) throws -> String {
                try kit.notification("SUBSCRIBED", subtype: "INITIAL_BUY", signed: t0,
                                     transaction: kit.transaction(id: original, original: original, purchase: t0, expires: t0 + 30 * day),
                                     renewal: kit.renewal(original: original, signed: t0))
            }
            func posted(_ original: String) throws -> String {
                try kit.sign(kit.transaction(id: original, original: original, purchase: t0, expires: t0 + 30 * day))
            }
            // Stored first, linked by a later transaction.
            _ = try await backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try subscribed("30"))
            #expect(try await test.eventTypes("carol") == [])
            _ = try await backend.receiveTransaction(appUserId: "carol", signedTransaction: try posted("30"))
            #expect(try await test.eventTypes("carol") == ["INITIAL_PURCHASE"])
            // Both in one batch, the notification first: the batch waits behind a held write.
            let (gate, open) = AsyncStream.makeStream(of: Void.self)
            let (entered, enter) = AsyncStream.makeStream(of: Void.self)
            let held = Task {
                try await backend.ingest.write { _ in
                    enter.yield()
                    for await _ in gate { break }
                }
            }
            for await _ in entered { break }
            let notification = Task { try await backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try subscribed("40")) }
            while backend.ingest.queued < 1 { await Task.yield() }
            let transaction = Task { try await backend.receiveTransaction(appUserId: "dave", signedTransaction: try posted("40")) }
            while backend.ingest.queued < 2 { await Task.yield() }
            let batches = backend.ingest.batches
            open.yield()
            try await held.value
            #expect(try await notification.value == .applied)
            #expect(try await transaction.value.entitlements["plus"]?.isActive == true)
            #expect(backend.ingest.batches == batches + 2, "the held write, then one batch of both")
            #expect(try await test.eventTypes("dave") == ["INITIAL_PURCHASE"])
        }
    }

    /// Many apps posting at once, as after a launch: batches of new customers, each answered with
    /// the customer it just made, and every one stored.
    @Test(arguments: BackendTestEngine.all) func manyConcurrentPostsEachFindTheirCustomer(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let backend = test.backend
            let posts = try (0..<300).map { i in
                ("user-\(i)", try kit.sign(kit.transaction(id: "\(9_000 + i)", original: "\(9_000 + i)", purchase: t0, expires: t0 + 30 * day)))
            }
            let answered = try await withThrowingTaskGroup(of: String.self) { group in
                for (user, signed) in posts {
                    group.addTask { try await backend.receiveTransaction(appUserId: user, signedTransaction: signed).appUserId }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(answered == Set(posts.map(\.0)))
            for (user, _) in posts {
                #expect(try await backend.customerInfo(appUserId: user)?.entitlements["plus"]?.isActive == true, "\(user)")
            }
            #expect(backend.ingest.batches < posts.count, "posts shared transactions")
        }
    }

    @Test(arguments: BackendTestEngine.all) func theAppsTransactionLinksTheCustomer(_ engine: BackendTestEngine) async throws {
        let kit = try SignedDataKit()
        try await TestBackend.with(trusting: [kit.authority.rootDER], engine: engine) { test in
            let token = "0e4b5a7c-2222-4b6b-8c1d-5e8f00000002"
            let tx = try kit.sign(kit.transaction(id: "7", original: "7", purchase: t0, expires: t0 + 30 * day, token: token))
            let info = try await test.backend.receiveTransaction(appUserId: "alice", signedTransaction: tx)
            #expect(info.appUserId == "alice" && info.entitlements["plus"]?.isActive == true)
            // The token now belongs to alice: the App Store's renewal notification lands on her.
            let renewal = kit.transaction(id: "8", original: "7", purchase: t0 + 30 * day, expires: t0 + 60 * day, token: token, reason: "RENEWAL")
            _ = try await test.backend.receiveNotification(bundleId: kit.bundleId, signedPayload: try kit.notification(
                "DID_RENEW", signed: t0 + 30 * day, transaction: renewal, renewal: kit.renewal(original: "7", signed: t0 + 30 * day)))
            let after = try #require(try await test.backend.customerInfo(appUserId: "alice"))
            #expect(after.entitlements["plus"]?.expiresDate == t0 + 60 * day)
            #expect(try await test.eventTypes("alice") == ["INITIAL_PURCHASE", "RENEWAL"])
            // Without a token, the transaction goes to the user who posted it.
            let plain = try kit.sign(kit.transaction(id: "20", original: "20", product: "lifetime", purchase: t0, expires: nil, type: "Non-Consumable"))
            let bob = try await test.backend.receiveTransaction(appUserId: "bob", signedTransaction: plain)
            #expect(bob.entitlements["lifetime"]?.isActive == true && bob.nonSubscriptions.count == 1)
        }
    }
}
