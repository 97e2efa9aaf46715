import Foundation
import SQLiteKit
import StoreTestSupport
import Testing
@testable import StoreStorage

/// Migration 3 (`IntegerKeySchema`) on a SQLite file a store of version 2 wrote: every row comes
/// through unchanged, the three tables' keys become their row keys (no hidden unique index left to
/// write), their indexes are back, and revoked transactions are still paged by the now partial
/// index.
@Suite(.removesTemporaryFolders) struct IntegerKeyMigrationTests {
    /// A file at schema version 2, with a transaction, a revoked one, an event and a notification.
    func versionTwoFile() async throws -> String {
        let path = TemporaryFolder.make("migration").appendingPathComponent("store.sqlite").path
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        let sql = connection.sql()
        try await sql.raw(SQLQueryString(Migrations.versionTable)).run()
        for step in Migrations.steps where step.version <= 2 {
            for statement in step.statements { try await sql.raw(SQLQueryString(statement)).run() }
            try await sql.raw("INSERT INTO schema_version (version, applied_ms) VALUES (\(bind: step.version), 1)").run()
        }
        for (id, revoked) in [(2_000_000_000_000_001, "NULL"), (2_000_000_000_000_002, "1700000000500")] {
            let row: String = """
                INSERT INTO transactions VALUES (\(id), 'default', \(id - 2_000_000_000_000_000), \(id), 'com.example.app', 'alice',
                'p', 'Consumable', NULL, 1700000000000, NULL, \(revoked), 0, 'ORDER\(id)', 'PURCHASED', '{"transactionId":"\(id)"}')
                """
            try await sql.raw(SQLQueryString(row)).run()
        }
        try await sql.raw("""
            INSERT INTO lifecycle_events VALUES (7, 'default', 'com.example.app', 'alice', 'ONE_TIME_CHARGE', NULL,
            2000000000000001, 2000000000000001, 1700000000000, NULL)
            """).run()
        try await sql.raw("""
            INSERT INTO notifications VALUES (9, 'u-9', 'default', 'com.example.app', 'alice', 'Sandbox', 'ONE_TIME_CHARGE', NULL,
            2000000000000001, 2000000000000001, 1700000000000, 'k', 'b', NULL, NULL, NULL, 1700000000000, 0, 0, '[]')
            """).run()
        try await connection.close()
        return path
    }

    @Test func aVersionTwoFileKeepsEveryRowAndLosesTheHiddenKeyIndexes() async throws {
        let database = try await StoreDatabase.open(path: try await versionTwoFile())
        let versions = try await database.readSQL.raw("SELECT version FROM schema_version ORDER BY version").all()
            .map { try $0.decode(column: "version", as: Int.self) }
        #expect(versions == Array(1...Migrations.latest) && Migrations.latest >= 3)

        let kept = try #require(try await database.transaction(id: 2_000_000_000_000_001))
        #expect(kept.payload == #"{"transactionId":"2000000000000001"}"# && kept.orderId == "ORDER2000000000000001" && kept.seq == 1)
        let revoked = try await database.revokedTransactionPage(world: "default", bundleId: "com.example.app", customer: "alice", after: nil, limit: 10)
        #expect(revoked.map(\.id) == [2_000_000_000_000_002] && revoked.first?.revokedMs == 1_700_000_000_500)
        #expect(try await database.events(world: "default").map(\.seq) == [7])
        #expect(try await database.readSQL.raw("SELECT uuid FROM notifications WHERE seq = 9").first(decodingColumn: "uuid", as: String.self) == "u-9")

        for table in ["transactions", "lifecycle_events", "notifications"] {
            let indexes = try await database.readSQL.raw(SQLQueryString("PRAGMA index_list(" + table + ")")).all()
                .map { try $0.decode(column: "name", as: String.self) }
            #expect(!indexes.contains { $0.hasPrefix("sqlite_autoindex") }, "\(table): \(indexes)")
            #expect(!indexes.isEmpty, "\(table) has its indexes again")
        }
        let revokedIndex = try await database.readSQL.raw("SELECT sql FROM sqlite_master WHERE name = 'transactions_revoked'")
            .first(decodingColumn: "sql", as: String.self)
        #expect(revokedIndex?.hasSuffix("WHERE revoked_ms IS NOT NULL") == true)

        // The store writes on: an upsert on the new row key replaces, and a new row lands.
        var update = kept
        update.seq = 3
        update.finished = true
        try await database.write(WriteBatch(transactions: [update, sampleTransaction(id: 2_000_000_000_000_003, seq: 4)]))
        #expect(try await database.transaction(id: 2_000_000_000_000_001)?.finished == true)
        #expect(try await database.transaction(id: 2_000_000_000_000_003) != nil)
        await database.close()
    }
}
