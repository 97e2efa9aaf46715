import Foundation
import StoreTestSupport
import Testing
@testable import StoreStorage

func sampleTransaction(id: Int64, seq: Int64, customer: String = "alice", product: String = "com.example.seeds", world: String = "default") -> TransactionRecord {
    TransactionRecord(
        id: id, world: world, seq: seq, originalId: id, bundleId: "com.example.app", customer: customer,
        productId: product, productKind: "Consumable", groupId: nil, purchaseMs: 1_700_000_000_000 + seq,
        expiresMs: nil, revokedMs: nil, finished: false, orderId: "ORDER\(seq)", ownership: "PURCHASED",
        payload: #"{"transactionId":"\#(id)"}"#)
}

@Suite(.removesTemporaryFolders, .dropsTestDatabases) struct StoreDatabaseTests {
    @Test func createsTheFileInWALMode() async throws {
        let database = try await temporaryDatabase(.sqlite)
        #expect(FileManager.default.fileExists(atPath: database.path))
        let mode = try await database.readSQL.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
        #expect(mode == "wal")
        await database.close()
    }

    @Test(arguments: TestEngine.all) func writesSurviveReopening(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        let customer = CustomerRecord(world: "default", name: "alice", storefront: "FRA", locale: "fr_FR", createdMs: 42)
        try await database.write(WriteBatch(customers: [customer], transactions: [sampleTransaction(id: 10, seq: 1)], meta: ["k": "v"]))
        await database.close()

        let reopened = try await StoreDatabase.open(database.url)
        #expect(try await reopened.customer(world: "default", name: "alice") == customer)
        #expect(try await reopened.transaction(id: 10) == sampleTransaction(id: 10, seq: 1))
        #expect(try await reopened.meta("k") == "v")
        let marks = try await reopened.highWaterMarks()
        #expect(marks.transactionId == 10 && marks.seq == 1)
        await reopened.close()
    }

    @Test(arguments: TestEngine.all) func upsertsReplaceRowsButKeepCreationFields(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(customers: [CustomerRecord(world: "w", name: "bob", storefront: "USA", locale: "en_US", createdMs: 1)]))
        try await database.write(WriteBatch(customers: [CustomerRecord(world: "w", name: "bob", storefront: "JPN", locale: "ja_JP", createdMs: 99)]))
        let bob = try await database.customer(world: "w", name: "bob")
        #expect(bob?.storefront == "JPN")
        #expect(bob?.createdMs == 1)

        var finished = sampleTransaction(id: 5, seq: 1)
        try await database.write(WriteBatch(transactions: [finished]))
        finished.finished = true
        finished.seq = 2
        try await database.write(WriteBatch(transactions: [finished]))
        #expect(try await database.transaction(id: 5)?.finished == true)
        #expect(try await database.transactions(world: "default", bundleId: "com.example.app", customer: "alice").count == 1)
        await database.close()
    }

    @Test(arguments: TestEngine.all) func concurrentWritesAllLandAndOneBadWriteFailsAlone(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(transactions: [sampleTransaction(id: 1, seq: 1)]))
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 2...301 {
                group.addTask {
                    // Transaction 301 reuses change number 1, which the unique index refuses.
                    let seq: Int64 = index == 301 ? 1 : Int64(index)
                    do {
                        try await database.write(WriteBatch(transactions: [sampleTransaction(id: Int64(index), seq: seq)]))
                        return true
                    } catch {
                        return false
                    }
                }
            }
            var results: [Bool] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(outcomes.filter { $0 }.count == 299)
        #expect(outcomes.filter { !$0 }.count == 1)
        let stored = try await database.transactions(world: "default", bundleId: "com.example.app", customer: "alice")
        #expect(stored.count == 300)
        #expect(stored.map(\.seq) == stored.map(\.seq).sorted())
        #expect(try await database.transaction(id: 301) == nil)
        await database.close()
    }

    @Test(arguments: TestEngine.all) func worldsAndCustomersDoNotMix(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(transactions: [
            sampleTransaction(id: 1, seq: 1, customer: "alice", world: "a"),
            sampleTransaction(id: 2, seq: 2, customer: "alice", world: "b"),
            sampleTransaction(id: 3, seq: 3, customer: "bob", world: "a"),
        ]))
        #expect(try await database.transactions(world: "a", bundleId: "com.example.app", customer: "alice").map(\.id) == [1])
        #expect(try await database.transactions(world: "b", bundleId: "com.example.app", customer: "alice").map(\.id) == [2])
        await database.close()
    }

    @Test(arguments: TestEngine.all) func customerNamesAreListedPerWorldInOrder(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        try await database.write(WriteBatch(customers: [
            CustomerRecord(world: "a", name: "zoe", storefront: "USA", locale: "en_US", createdMs: 1),
            CustomerRecord(world: "a", name: "adam", storefront: "USA", locale: "en_US", createdMs: 2),
            CustomerRecord(world: "b", name: "bea", storefront: "FRA", locale: "fr_FR", createdMs: 3),
        ]))
        #expect(try await database.customerNames(world: "a") == ["adam", "zoe"])
        #expect(try await database.customerNames(world: "a", limit: 1) == ["adam"])
        #expect(try await database.customerNames(world: "c") == [])
        await database.close()
    }

    @Test(arguments: TestEngine.all) func hostileTextIsStoredVerbatim(_ engine: TestEngine) async throws {
        let database = try await temporaryDatabase(engine)
        let name = "Robert'); DROP TABLE customers;--"
        try await database.write(WriteBatch(customers: [CustomerRecord(world: "default", name: name, storefront: "USA", locale: "en_US", createdMs: 0)]))
        #expect(try await database.customer(world: "default", name: name)?.name == name)
        await database.close()
    }
}
