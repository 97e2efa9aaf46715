import Foundation
import StoreEngine
import StoreModel
import StoreTestSupport
import Testing

/// A world deleted while requests for it arrive stays deleted. With many instances (PostgreSQL),
/// a request during the delete found the world gone from memory but its row and lease still
/// there, took it over again and put it back after its data was removed: `GET` answered 200
/// with its old `createdMs` (issue #32, seen once in compat's `test_world_create_list_delete`).
@Suite struct WorldDeletionRaceTests {
    @Test func aWorldDeletedWhileRequestsArriveStaysDeleted() async throws {
        let path = databasePath()
        let database = try await openTestDatabase(path)
        // On PostgreSQL the store holds worlds by lease, as `openstore serve` does there.
        let instance = path.hasPrefix("postgres://") ? InstanceSettings(advertiseURL: "http://127.0.0.1:9") : nil
        let store = try await AppStore.open(database: database, apps: [try makeApp()], clock: TestClock(), runScheduler: true, instance: instance)
        for round in 0..<10 {
            let id = "doomed-\(round)"
            _ = try await store.createWorld(id)
            let stop = Locked(false)
            let readers = (0..<8).map { _ in
                Task {
                    while !stop.value {
                        _ = try? await store.worldInfo(id)
                        await Task.yield()
                    }
                }
            }
            try await store.deleteWorld(id)
            for _ in 0..<20 { _ = try? await store.worldInfo(id); await Task.yield() }
            stop.value = true
            for reader in readers { await reader.value }
            await #expect(throws: StoreError.self, "round \(round): the deleted world came back") {
                _ = try await store.worldInfo(id)
            }
            #expect(!(await store.listWorlds()).contains { $0.id == id }, "round \(round)")
        }
        await store.close()
    }
}
