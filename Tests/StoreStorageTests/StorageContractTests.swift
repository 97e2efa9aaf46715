import Foundation
import StoreTestSupport
import Testing
@testable import StoreStorage
import StoreShared

/// One storage contract, two engines: every read and write the store makes behaves the same on
/// SQLite and on PostgreSQL (when `OPENSTORE_TEST_POSTGRES_URL` names a server).
@Suite(.removesTemporaryFolders, .dropsTestDatabases) struct StorageContractTests {
    static let app = "com.example.app"

    func notification(_ seq: Int64, world: String = "w", customer: String = "alice", type: String = "SUBSCRIBED",
                      signedMs: Int64, due: Int64?, test: String? = nil) -> NotificationRecord {
        NotificationRecord(
            seq: seq, uuid: "uuid-\(seq)", world: world, bundleId: Self.app, customer: customer, environment: "Sandbox",
            type: type, subtype: seq.isMultiple(of: 2) ? "INITIAL_BUY" : nil, transactionId: seq * 10, originalId: nil,
            signedMs: signedMs, bodyKey: "data", body: #"{"bundleId":"com.example.app"}"#, transactionJSON: nil,
            renewalJSON: seq.isMultiple(of: 3) ? #"{"autoRenewStatus":1}"# : nil, testToken: test, nextAttemptMs: due)
    }

    @Test(arguments: TestEngine.all) func theOutboxDeliversInOrderAndOutcomesOnlyMoveForward(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(events: [EventRecord(
            seq: 1, world: "w", bundleId: Self.app, customer: "alice", type: "SUBSCRIBED", subtype: nil, transactionId: nil,
            originalId: nil, atMs: 1_000, data: nil)]))
        var batch = WriteBatch()
        batch.notifications = [
            .emit(notification(1, signedMs: 1_000, due: 1_000)),
            .emit(notification(2, signedMs: 2_000, due: 2_000)),
            .emit(notification(3, customer: "bob", type: "DID_RENEW", signedMs: 3_000, due: 5_000)),
            .emit(notification(4, signedMs: 4_000, due: 4_000, test: "token-4")),
        ]
        try await database.write(batch)
        // A replayed emission changes nothing.
        var replay = WriteBatch()
        replay.notifications = [.emit(notification(1, signedMs: 9_999, due: 9_999))]
        try await database.write(replay)
        #expect(try await database.notification(seq: 1) == notification(1, signedMs: 1_000, due: 1_000))

        #expect(try await database.dueNotifications(world: "w", untilMs: 4_000, limit: 10).map(\.seq) == [1, 2, 4])
        // Due rows decode whole; a pass's next page starts after the last one's (due time, seq).
        #expect(try await database.dueNotifications(world: "w", untilMs: 4_000, limit: 10) == [
            notification(1, signedMs: 1_000, due: 1_000), notification(2, signedMs: 2_000, due: 2_000),
            notification(4, signedMs: 4_000, due: 4_000, test: "token-4")])
        #expect(try await database.dueNotifications(world: "w", untilMs: 4_000, after: (1_000, 1), limit: 1).map(\.seq) == [2])
        #expect(try await database.dueNotifications(world: "w", untilMs: 9_000, after: (2_000, 2), limit: 10).map(\.seq) == [4, 3])
        #expect(try await database.nextNotificationDueMs(world: "w") == 1_000)
        #expect(try await database.notification(testToken: "token-4")?.seq == 4)

        // Two outcomes of the same notification in one batch: the later attempt wins; a stale one later is ignored.
        var outcomes = WriteBatch()
        outcomes.notifications = [
            .attempt(NotificationAttemptUpdate(seq: 1, attemptCount: 1, delivered: false, nextAttemptMs: 3_600_000, attempts: #"[{"a":1}]"#)),
            .attempt(NotificationAttemptUpdate(seq: 1, attemptCount: 2, delivered: true, nextAttemptMs: nil, attempts: #"[{"a":1},{"a":2}]"#)),
            .attempt(NotificationAttemptUpdate(seq: 2, attemptCount: 1, delivered: false, nextAttemptMs: 7_000, attempts: #"[{"a":1}]"#)),
        ]
        try await database.write(outcomes)
        var stale = WriteBatch()
        stale.notifications = [.attempt(NotificationAttemptUpdate(seq: 1, attemptCount: 1, delivered: false, nextAttemptMs: 1, attempts: "[]"))]
        try await database.write(stale)
        let first = try await database.notification(seq: 1)
        #expect(first?.delivered == true && first?.attemptCount == 2 && first?.nextAttemptMs == nil)
        #expect(try await database.dueNotifications(world: "w", untilMs: 6_000, limit: 10).map(\.seq) == [4, 3])

        // History: test notifications never appear; filters AND together; a cursor pages on.
        let all = NotificationHistoryQuery(world: "w", bundleId: Self.app, startMs: 0, endMs: 10_000, limit: 10)
        #expect(try await database.notificationHistory(all).map(\.seq) == [1, 2, 3])
        var bob = all
        bob.customer = "bob"
        #expect(try await database.notificationHistory(bob).map(\.seq) == [3])
        var failures = all
        failures.onlyFailures = true
        failures.afterSeq = 2
        #expect(try await database.notificationHistory(failures).map(\.seq) == [3])
        var typed = all
        typed.type = "SUBSCRIBED"
        typed.subtype = "INITIAL_BUY"
        #expect(try await database.notificationHistory(typed).map(\.seq) == [2])
        #expect(try await database.notifications(world: "w", afterSeq: 1, limit: 2).map(\.seq) == [2, 3])

        #expect(try await database.rescheduleNotification(world: "w", seq: 3, atMs: 100) == true)
        #expect(try await database.rescheduleNotification(world: "w", seq: 1, atMs: 100) == false)
        #expect(try await database.dueNotifications(world: "w", untilMs: 100, limit: 10).map(\.seq) == [3])
        await database.close()
    }

    @Test(arguments: TestEngine.all) func historyPagesFollowTheChangeSequence(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        var rows = (1...30).map { sampleTransaction(id: Int64($0), seq: Int64($0), product: $0.isMultiple(of: 3) ? "p.three" : "p.other") }
        rows[4].revokedMs = 5_000
        rows[9].revokedMs = 2_000
        rows[19].revokedMs = 2_000
        rows.append(sampleTransaction(id: 31, seq: 31, customer: "bob"))
        rows.append(sampleTransaction(id: 32, seq: 32, world: "other"))
        try await database.write(WriteBatch(transactions: rows))
        // A transaction that changes moves to the end of the sequence.
        var changed = rows[0]
        changed.seq = 40
        changed.finished = true
        try await database.write(WriteBatch(transactions: [changed]))

        var page = TransactionPageQuery(world: "default", bundleId: Self.app, customer: "alice", limit: 20)
        let first = try await database.transactionPage(page)
        #expect(first.map(\.id) == Array(2...21).map(Int64.init))
        page.afterSeq = first.last?.seq
        #expect(try await database.transactionPage(page).map(\.id) == Array(22...30).map(Int64.init) + [1])

        var newest = TransactionPageQuery(world: "default", bundleId: Self.app, customer: "alice", descending: true, limit: 3)
        #expect(try await database.transactionPage(newest).map(\.id) == [1, 30, 29])
        newest.afterSeq = 29
        newest.productIds = ["p.three"]
        #expect(try await database.transactionPage(newest).map(\.id) == [27, 24, 21])
        var revoked = TransactionPageQuery(world: "default", bundleId: Self.app, customer: "alice", revoked: true, limit: 10)
        #expect(try await database.transactionPage(revoked).map(\.id) == [5, 10, 20])
        revoked.revoked = false
        revoked.excludeFinishedConsumables = true
        #expect(try await database.transactionPage(revoked).map(\.id).contains(1) == false)

        let byRevocation = try await database.revokedTransactionPage(world: "default", bundleId: Self.app, customer: "alice", after: nil, limit: 10)
        #expect(byRevocation.map(\.id) == [10, 20, 5])
        let afterFirst = try await database.revokedTransactionPage(
            world: "default", bundleId: Self.app, customer: "alice", after: (revokedMs: 2_000, id: 10), limit: 10)
        #expect(afterFirst.map(\.id) == [20, 5])

        // The change feed: the world's, and one customer's (what a resumed Transaction.updates reads).
        #expect(try await database.transactionsChanged(world: "default", afterSeq: 29, limit: 5).map(\.id) == [30, 31, 1])
        #expect(try await database.transactionsChanged(world: "default", bundleId: Self.app, customer: "alice", afterSeq: 29, limit: 5).map(\.id) == [30, 1])
        #expect(try await database.lastTransactionSeq(world: "default", bundleId: Self.app, customer: "alice") == 40)
        #expect(try await database.lastTransactionSeq(world: "default", bundleId: Self.app, customer: "nobody") == 0)
        #expect(try await database.transactions(world: "default", orderId: "ORDER7").map(\.id) == [7])
        #expect(try await database.transactions(originalId: 7).map(\.id) == [7])
        #expect(Set(try await database.transactions(ids: [3, 31, 99]).map(\.id)) == [3, 31])
        let marks = try await database.highWaterMarks()
        #expect(marks.transactionId == 32 && marks.seq == 40)
        await database.close()
    }

    @Test(arguments: TestEngine.all) func searchesMatchTextAsItIs(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(customers: ["Ann_1", "ann%2", "Bob", "annie"].enumerated().map {
            CustomerRecord(world: "w", name: $0.element, storefront: "USA", locale: "en_US", createdMs: Int64($0.offset))
        }))
        #expect(try await database.customers(world: "w", nameContaining: "ANN", limit: 10).map(\.name) == ["Ann_1", "ann%2", "annie"])
        // `_` and `%` are letters here, not wildcards.
        #expect(try await database.customers(world: "w", nameContaining: "n_", limit: 10).map(\.name) == ["Ann_1"])
        #expect(try await database.customers(world: "w", nameContaining: "%", limit: 10).map(\.name) == ["ann%2"])
        #expect(try await database.customers(world: "w", nameContaining: nil, limit: 2).map(\.name) == ["Ann_1", "Bob"])

        var tokened = sampleTransaction(id: 1, seq: 1, world: "w")
        tokened.payload = #"{"transactionId":"1","appAccountToken":"0f0e0d0c-0000-4000-8000-000000000001"}"#
        try await database.write(WriteBatch(transactions: [tokened, sampleTransaction(id: 2, seq: 2, world: "w")]))
        #expect(try await database.transactions(world: "w", appAccountToken: "0f0e0d0c-0000-4000-8000-000000000001").map(\.id) == [1])
        #expect(try await database.worldTransactions(world: "w", limit: 1).map(\.id) == [2])
        let spans = try await database.transactionSpans(world: "w", bundleId: Self.app, customer: "alice")
        #expect(Set(spans.map(\.id)) == [1, 2])
        await database.close()
    }

    @Test(arguments: TestEngine.all) func worldsKeysAndDocumentsRoundTrip(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.saveWorld(id: "w", createdMs: 5, config: #"{"rate":1}"#)
        try await database.saveWorld(id: "w", createdMs: 9, config: #"{"rate":2}"#)
        #expect(try await database.worlds().map { "\($0.id) \($0.createdMs) \($0.config)" } == [#"w 5 {"rate":2}"#])

        try await database.upsertApp(AppRecord(bundleId: Self.app, appAppleId: 42, environment: "Sandbox", name: "App", catalogJSON: "{}"))
        #expect(try await database.apps().map(\.appAppleId) == [42])

        let key = APIKeyRecord(keyId: "K1", issuerId: "I", bundleId: Self.app, world: "w", publicKeyPEM: "PEM", createdMs: 1)
        try await database.insertAPIKey(key)
        #expect(try await database.apiKey(id: "K1") == key)
        #expect(try await database.apiKeys(bundleId: Self.app) == [key])
        try await database.deleteAPIKey(id: "K1")
        #expect(try await database.apiKey(id: "K1") == nil)

        try await database.saveConsumptionInfo(ConsumptionInfoRecord(world: "w", transactionId: 7, version: 1, body: "{}", receivedMs: 1))
        try await database.saveConsumptionInfo(ConsumptionInfoRecord(world: "w", transactionId: 7, version: 2, body: #"{"x":1}"#, receivedMs: 2))
        #expect(try await database.consumptionInfo(world: "w", transactionId: 7)?.version == 2)

        let copy = AppTransactionRecord(
            world: "w", bundleId: Self.app, customer: "alice", appTransactionId: "705", applicationVersion: "2",
            originalApplicationVersion: "1", originalPurchaseMs: 3, originalPlatform: "iOS", createdMs: 3)
        try await database.write(WriteBatch(
            appTransactions: [copy],
            events: [EventRecord(seq: 9, world: "w", bundleId: Self.app, customer: "alice", type: "REFUND", subtype: nil,
                                 transactionId: 7, originalId: 7, atMs: 10, data: #"{"k":"v"}"#)],
            worldRecords: [WorldRecord(world: "w", kind: "code", key: "A", value: "1"), WorldRecord(world: "w", kind: "code", key: "B", value: "2")]))
        #expect(try await database.appTransaction(world: "w", appTransactionId: "705") == copy)
        #expect(try await database.events(world: "w").map(\.data) == [#"{"k":"v"}"#])
        #expect(try await database.latestEvents(world: "w", limit: 5).map(\.seq) == [9])
        #expect(try await database.worldRecord(world: "w", kind: "code", key: "B")?.value == "2")
        try await database.deleteWorldRecord(world: "w", kind: "code", key: "A")
        #expect(try await database.worldRecords(world: "w", kind: "code").map(\.key) == ["B"])
        #expect(try await database.highWaterMarks().transactionId == 705)

        try await database.deleteWorldData("w", keepWorld: true)
        #expect(try await database.events(world: "w").isEmpty)
        #expect(try await database.worlds().count == 1)
        try await database.deleteWorldData("w", keepWorld: false)
        #expect(try await database.worlds().isEmpty)
        await database.close()
    }

    @Test(arguments: TestEngine.all) func twoStoresOpeningAnEmptyDatabaseAtOnceCreateTheSchemaOnce(_ engine: TestEngine) async throws {
        let url: DatabaseURL
        switch engine {
        case .sqlite: url = .sqlite(path: TemporaryFolder.make("storage").appendingPathComponent("store.sqlite").path)
        case .postgres: url = try await TestDatabases.create()
        }
        async let first = StoreDatabase.open(url)
        async let second = StoreDatabase.open(url)
        let (a, b) = try await (first, second)
        for database in [a, b] {
            let readiness = await database.readiness()
            #expect(readiness.ready && readiness.schemaVersion == Migrations.latest)
        }
        let versions = try await a.readSQL.raw("SELECT version FROM schema_version ORDER BY version").all()
            .map { try $0.decode(column: "version", as: Int.self) }
        #expect(versions == Migrations.steps.map(\.version))
        // Both serve the same store.
        try await a.write(WriteBatch(meta: ["k": "v"]))
        #expect(try await b.meta("k") == "v")
        await a.close()
        await b.close()
    }
}

/// Faults: a database that cannot be reached is named in the error; one that goes away makes
/// writes fail as "unavailable" (never half-written) and the store recovers when it is back.
@Suite(.dropsTestDatabases) struct StorageFaultTests {
    @Test func anUnreachableServerIsNamedByHostAndPortWithoutItsPassword() async throws {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        let error = await #expect(throws: StorageUnavailable.self) {
            _ = try await StoreDatabase.open(url: "postgres://store:s3cret-pw@127.0.0.1:1/openstore")
        }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("127.0.0.1:1"))
        #expect(!text.contains("s3cret-pw"))
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil))
    func aWrongPasswordOrAMissingDatabaseIsReportedAtOpen() async throws {
        var location = try TestDatabases.server()
        location.password = "not-the-password"
        let refused = await #expect(throws: StorageUnavailable.self) { _ = try await StoreDatabase.open(.postgres(location)) }
        #expect("\(refused.map { "\($0)" } ?? "")".contains("\(location.host):\(location.port)"))
        #expect(!"\(refused.map { "\($0)" } ?? "")".contains("not-the-password"))
        var missing = try TestDatabases.server()
        missing.database = "no_such_database_here"
        let absent = await #expect(throws: StorageUnavailable.self) { _ = try await StoreDatabase.open(.postgres(missing)) }
        #expect("\(absent.map { "\($0)" } ?? "")".contains("no_such_database_here"))
    }

    @Test(arguments: [
        ("mysql://u@h/db", "use sqlite:PATH or postgres://"),
        ("postgres://h:5432/db", "names no user"),
        ("postgres://u@h:5432/", "names no database"),
        ("postgres://u@h/db?sslmode=sometimes", "sslmode"),
        ("sqlite:", "needs a file path"),
    ])
    func badURLsAreRefusedWithTheReason(_ url: String, _ reason: String) {
        #expect(throws: DatabaseURLError.self) { try DatabaseURL(parsing: url) }
        #expect((try? DatabaseURL(parsing: url)) == nil)
        do { _ = try DatabaseURL(parsing: url) } catch { #expect("\(error)".contains(reason)) }
    }

    @Test func urlsParseToTheirParts() throws {
        #expect(try DatabaseURL(parsing: "sqlite:./data/store.sqlite") == .sqlite(path: "./data/store.sqlite"))
        let url = try DatabaseURL(parsing: "postgresql://app:p%40ss@db.internal:6543/store?sslmode=require")
        guard case .postgres(let location) = url else { Issue.record("not postgres"); return }
        #expect(location.host == "db.internal" && location.port == 6543 && location.user == "app")
        #expect(location.password == "p@ss" && location.database == "store" && location.tls == .require)
        #expect(url.description == "postgres://app:***@db.internal:6543/store")
        guard case .postgres(let plain) = try DatabaseURL(parsing: "postgres://app@localhost/store") else { return }
        #expect(plain.port == 5432 && plain.password == nil && plain.tls == .disable)
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil))
    func connectionsCutByTheServerAreReopenedWithoutAnError() async throws {
        let url = try await TestDatabases.create()
        guard case .postgres(let location) = url else { return }
        let database = try await StoreDatabase.open(url)
        try await database.write(WriteBatch(transactions: [sampleTransaction(id: 1, seq: 1)]))
        #expect(try await database.transaction(id: 1) != nil)
        // As a server restart does: every connection of the store is cut.
        try await TestDatabases.admin(try TestDatabases.server()) { connection in
            try await connection.query(.init(unsafeSQL: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(location.database)'"),
                                       logger: TestDatabases.logger)
        }
        try await database.write(WriteBatch(transactions: [sampleTransaction(id: 2, seq: 2)]))
        #expect(try await database.transactions(world: "default", bundleId: "com.example.app", customer: "alice").map(\.id) == [1, 2])
        #expect(try await database.meta("absent") == nil)
        await database.close()
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil))
    func writesFailAsUnavailableWhileTheDatabaseIsAwayAndResumeAfter() async throws {
        let url = try await TestDatabases.create()
        guard case .postgres(let location) = url else { return }
        let database = try await StoreDatabase.open(url)
        try await database.write(WriteBatch(transactions: [sampleTransaction(id: 1, seq: 1)]))

        // The database goes away: new connections are refused and the store's are cut.
        let admin = try TestDatabases.server()
        try await TestDatabases.admin(admin) { connection in
            try await connection.query(.init(unsafeSQL: "ALTER DATABASE \(location.database) ALLOW_CONNECTIONS false"), logger: TestDatabases.logger)
            try await connection.query(.init(unsafeSQL: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(location.database)'"),
                                       logger: TestDatabases.logger)
        }
        await #expect(throws: StorageUnavailable.self) {
            try await database.write(WriteBatch(transactions: [sampleTransaction(id: 2, seq: 2)]))
        }
        await #expect(throws: StorageUnavailable.self) { _ = try await database.transaction(id: 1) }
        #expect(await database.readiness().ready == false)

        // It comes back: the same store object writes and reads again, and nothing acknowledged is lost.
        try await TestDatabases.admin(admin) { connection in
            try await connection.query(.init(unsafeSQL: "ALTER DATABASE \(location.database) ALLOW_CONNECTIONS true"), logger: TestDatabases.logger)
        }
        try await database.write(WriteBatch(transactions: [sampleTransaction(id: 3, seq: 3)]))
        #expect(try await database.transactions(world: "default", bundleId: "com.example.app", customer: "alice").map(\.id) == [1, 3])
        #expect(await database.readiness().ready)
        await database.close()
    }
}
