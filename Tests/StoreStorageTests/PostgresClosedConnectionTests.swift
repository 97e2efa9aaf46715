import Foundation
import PostgresNIO
import StoreModel
import StoreShared
import StoreTestSupport
import Testing
@testable import StoreStorage

/// PostgresNIO never answers a statement sent on a connection that closed between the check and
/// the send. The store's reads and transactions fail at once instead (`PostgresCloseWatch`), as a
/// connection loss, and the next use reconnects. Without the guard each test hangs (bounded here
/// at 30 s, to fail instead of stalling the run).
@Suite(.dropsTestDatabases) struct PostgresClosedConnectionTests {
    func customer(_ name: String) -> CustomerRecord {
        CustomerRecord(world: "w", name: name, storefront: "USA", locale: "en_US", createdMs: 1)
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil)) func aReadOnAConnectionClosedUnderItFailsAtOnceAndTheNextReadReconnects() async throws {
        let database = try await temporaryDatabase(.postgres)
        let engine = try #require(database.engine as? PostgresEngine)
        try await finishing(within: 30) {
            let link = engine.readers[0]
            let connection = try await link.connection()
            try await connection.close()
            let error = await #expect(throws: (any Error).self) {
                _ = try await PostgresEngine.read("SELECT 1 AS one", on: connection, logger: engine.logger) { _ in 1 }
            }
            #expect(error.map { PostgresFailure.isConnectionLoss($0, connection: connection) } == true)
            #expect(await link.failure(error!, on: connection) is StorageUnavailable)
            // Every reader answers again: the closed one reconnects on its next use.
            for _ in 0..<(2 * PostgresEngine.readerCount) {
                #expect(try await database.customer(world: "w", name: "nobody") == nil)
            }
        }
        await database.close()
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil)) func aTransactionWhoseConnectionClosesUnderItFailsAtOnceAndTheNextWriteReconnects() async throws {
        let database = try await temporaryDatabase(.postgres)
        let engine = try #require(database.engine as? PostgresEngine)
        try await finishing(within: 30) {
            await #expect(throws: StorageUnavailable.self) {
                try await engine.transaction { (connection: PostgresConnection) in
                    try await connection.close()
                    try await connection.query("SELECT 1", logger: engine.logger)
                }
            }
            try await database.write(WriteBatch(customers: [customer("after")]))
            #expect(try await database.customer(world: "w", name: "after") != nil)
        }
        await database.close()
    }
}
