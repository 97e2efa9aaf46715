import Foundation
import StoreTestSupport
import Testing
@testable import StoreStorage

/// The batch writer's invariants, through a real SQLite file and a real PostgreSQL database: a row only moves forward (the
/// version guard), duplicate keys in one batch collapse to the last, and a batch of thousands of
/// rows is written whole, each table through its one prepared single-row upsert.
@Suite(.removesTemporaryFolders, .dropsTestDatabases) struct UpsertsTests {
    func subscription(_ originalId: Int64, version: Int64, status: Int = 1, product: String = "p.monthly") -> SubscriptionRecord {
        SubscriptionRecord(world: "default", originalId: originalId, bundleId: "com.example.app", customer: "alice", groupId: "G",
                           productId: product, status: status, nextEventMs: 1_000 * version, version: version,
                           state: "{\"v\":\(version)}", updatedMs: version)
    }

    @Test(arguments: TestEngine.all) func anOlderVersionAfterANewerOneIsIgnored(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(subscriptions: [subscription(1, version: 5, status: 1, product: "p.new")]))
        try await database.write(WriteBatch(subscriptions: [subscription(1, version: 3, status: 2, product: "p.old")]))
        #expect(try await database.subscription(world: "default", originalId: 1) == subscription(1, version: 5, status: 1, product: "p.new"))
        // The same version again is applied (a retried write), a newer one too.
        try await database.write(WriteBatch(subscriptions: [subscription(1, version: 5, status: 3, product: "p.new")]))
        #expect(try await database.subscription(world: "default", originalId: 1)?.status == 3)
        try await database.write(WriteBatch(subscriptions: [subscription(1, version: 6, status: 4, product: "p.newer")]))
        #expect(try await database.subscription(world: "default", originalId: 1) == subscription(1, version: 6, status: 4, product: "p.newer"))

        // Transactions are guarded by their change number the same way.
        var transaction = sampleTransaction(id: 7, seq: 10)
        transaction.finished = true
        try await database.write(WriteBatch(transactions: [transaction]))
        try await database.write(WriteBatch(transactions: [sampleTransaction(id: 7, seq: 9)]))
        #expect(try await database.transaction(id: 7) == transaction)
        await database.close()
    }

    @Test(arguments: TestEngine.all) func duplicateKeysInOneBatchKeepTheNewestRow(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        // Newest in the middle: a later row with a lower version does not win inside the batch either.
        try await database.write(WriteBatch(subscriptions: [
            subscription(2, version: 1, status: 1), subscription(2, version: 4, status: 4), subscription(2, version: 2, status: 2),
            subscription(3, version: 1, status: 1), subscription(3, version: 1, status: 5),
        ]))
        #expect(try await database.subscription(world: "default", originalId: 2)?.status == 4)
        // Equal versions: the later row wins, as it would applied one by one.
        #expect(try await database.subscription(world: "default", originalId: 3)?.status == 5)

        let spec = TableSpec(table: "t", columns: [("k", .text), ("v", .integer)], conflict: ["k"])
        let rows = Upserts.unique([[.init("a"), .init(1)], [.init("b"), .init(2)], [.init("a"), .init(3)]], spec: spec)
        // One row per key, in first-seen order, holding the last row's values; one statement for all.
        #expect(spec.singleRowSQL == "INSERT INTO t (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v")
        #expect(rows.map { $0.map { "\($0)" } } == [[#""a""#, "3"], [#""b""#, "2"]])

        try await database.write(WriteBatch(customers: [
            CustomerRecord(world: "w", name: "ann", storefront: "USA", locale: "en_US", createdMs: 1),
            CustomerRecord(world: "w", name: "ann", storefront: "FRA", locale: "fr_FR", createdMs: 2),
        ]))
        let ann = try await database.customer(world: "w", name: "ann")
        #expect(ann?.storefront == "FRA" && ann?.locale == "fr_FR")
        await database.close()
    }

    @Test(arguments: TestEngine.all) func largeBatchesAreWrittenWhole(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        let count = 2_051
        let rows = (1...count).map { sampleTransaction(id: Int64($0), seq: Int64($0)) }
        // SQLite's plan is one prepared statement for the table, stepped once per row.
        let groups = Upserts.sqliteRows(for: WriteBatch(transactions: rows))
        #expect(groups.count == 1 && groups[0].rows.count == count && groups[0].sql == Upserts.transactions.singleRowSQL)
        try await database.write(WriteBatch(transactions: rows))
        let stored = try await database.transactions(world: "default", bundleId: "com.example.app", customer: "alice")
        #expect(stored.count == count)
        #expect(stored.map(\.id) == (1...count).map(Int64.init))
        #expect(stored.last == rows.last)

        // Rewriting all of them with newer change numbers (and finished) updates every chunk.
        let finished = rows.map { row -> TransactionRecord in
            var row = row
            row.seq += Int64(count)
            row.finished = true
            return row
        }
        try await database.write(WriteBatch(transactions: finished))
        let again = try await database.transactions(world: "default", bundleId: "com.example.app", customer: "alice")
        #expect(again.count == count && again.allSatisfy(\.finished))
        await database.close()
    }
}
