import Foundation
import StoreTestSupport
import Testing
@testable import StoreStorage
import StoreShared

/// The group committer's fence (`WriteFence`): once a writer's batch failed, the batches that
/// writer decided on the same memory are refused unwritten, while its batches of a later epoch,
/// other writers' batches and unfenced writes go through. The failure is real: SQLite's writing
/// connections refuse writes (`PRAGMA query_only`, SQLITE_READONLY, as on a read-only disk).
/// The committer is the same on both engines, so SQLite alone checks it.
@Suite(.removesTemporaryFolders) struct WriteFenceTests {
    func customer(_ name: String) -> CustomerRecord {
        CustomerRecord(world: "default", name: name, storefront: "USA", locale: "en_US", createdMs: 1)
    }

    func batch(_ name: String, scope: String?, epoch: Int) -> WriteBatch {
        var batch = WriteBatch(customers: [customer(name)])
        batch.fence = scope.map { WriteFence(scope: $0, epoch: epoch) }
        return batch
    }

    @Test func aFailedBatchFencesOffItsWritersLaterBatchesOfTheSameEpoch() async throws {
        let database = try await temporaryDatabase(.sqlite)
        let engine = try #require(database.engine as? SQLiteEngine)
        try await engine.refuseWrites(true)
        await #expect(throws: StorageUnavailable.self) { try await database.write(batch("a", scope: "w", epoch: 0)) }
        try await engine.refuseWrites(false)

        // Decided on memory that held the failed batch: refused, though the database takes writes.
        await #expect(throws: StorageUnavailable.self) { try await database.write(batch("b", scope: "w", epoch: 0)) }
        #expect(try await database.customer(world: "default", name: "b") == nil)
        // The writer reloaded (a new epoch), another writer, a write no memory depends on: written.
        try await database.write(batch("c", scope: "w", epoch: 1))
        try await database.write(batch("d", scope: "other", epoch: 0))
        try await database.write(batch("e", scope: nil, epoch: 0))
        for name in ["c", "d", "e"] {
            #expect(try await database.customer(world: "default", name: name) != nil)
        }
        #expect(try await database.customer(world: "default", name: "a") == nil)
        await database.close()
    }
}
