import Foundation
import StoreTestSupport
import Testing
@testable import StoreStorage

/// SQLite's hot reads run on prepared statements kept per SQL text (`SQLiteStatementReader`):
/// a read sees every batch committed before it (its statement does not keep an old snapshot), a
/// read never keeps the WAL from being checkpointed, and reads of ever-new SQL texts (an
/// `IN (?, ?, …)` list) stay correct past the statement cache's size.
@Suite(.removesTemporaryFolders) struct StatementReaderTests {
    @Test func readsSeeEveryCommitAndLeaveTheLogFreeToCheckpoint() async throws {
        let database = try await temporaryDatabase(.sqlite)
        let engine = try #require(database.engine as? SQLiteEngine)
        for seq in 1...3 {
            var row = sampleTransaction(id: 7, seq: Int64(seq))
            row.finished = seq == 3
            try await database.write(WriteBatch(transactions: [row]))
            // The same statement read again, after each commit.
            #expect(try await database.transaction(id: 7)?.seq == Int64(seq))
        }
        #expect(try await database.transaction(id: 7)?.finished == true)
        // No reader holds a snapshot: a truncating checkpoint empties the log.
        try await engine.batches.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let log = try FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int
        #expect(log == 0)
        await database.close()
    }

    @Test func readsOfManyDifferentTextsStayCorrect() async throws {
        let database = try await temporaryDatabase(.sqlite)
        try await database.write(WriteBatch(transactions: (1...300).map { sampleTransaction(id: Int64($0), seq: Int64($0)) }))
        for count in 1...300 {
            let marks = Array(repeating: "?", count: count).joined(separator: ", ")
            let ids = try await database.readRows(
                "SELECT id FROM transactions WHERE id IN (\(marks)) ORDER BY id", (1...count).map { StoreValue($0) }) { try $0.int64("id") }
            #expect(ids == (1...count).map(Int64.init))
        }
        // A column the statement does not have is an error, not a crash.
        await #expect(throws: RawColumnError.self) {
            _ = try await database.readRows("SELECT id FROM transactions LIMIT 1", []) { try $0.string("payload") }
        }
        await database.close()
    }
}
