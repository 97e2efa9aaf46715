import Foundation
import StoreTestSupport
import Testing
@testable import StoreStorage

/// Leases of many instances on one PostgreSQL (StoreDatabase+Leases, LeaseCheck): one owner at a
/// time, a higher epoch on every take-over, and a write carrying a stale epoch refused by the
/// database with nothing written. PostgreSQL only: a SQLite store is one process.
@Suite(.dropsTestDatabases) struct WorldLeaseTests {
    func customer(_ name: String) -> CustomerRecord {
        CustomerRecord(world: "w", name: name, storefront: "USA", locale: "en_US", createdMs: 1)
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil)) func aWriteUnderAStaleEpochIsRefusedAndWritesNothing() async throws {
        let database = try await temporaryDatabase(.postgres)
        let first = try await database.acquireLease(world: "w", owner: "A", address: "http://a", ttlMs: 60_000)
        #expect(first.owner == "A" && first.epoch == 1)
        // While A's lease runs, B cannot take the world; it learns A's address instead.
        let refused = try await database.acquireLease(world: "w", owner: "B", address: "http://b", ttlMs: 10_000)
        #expect(refused.owner == "A" && refused.address == "http://a" && refused.epoch == 1)

        var write = WriteBatch(customers: [customer("under-a")])
        write.leases = ["w": first.epoch]
        try await database.write(write)

        // A pauses past its lease (its row expires: the same state a release leaves, without a
        // wait a loaded machine could stretch); B takes over with a higher epoch.
        try await database.releaseLeases(owner: "A", worlds: ["w"])
        let taken = try await database.acquireLease(world: "w", owner: "B", address: "http://b", ttlMs: 10_000)
        #expect(taken.owner == "B" && taken.epoch == 2)

        // A wakes and writes with the epoch it held: refused, nothing of it stored.
        var stale = WriteBatch(customers: [customer("stale")])
        stale.leases = ["w": first.epoch]
        await #expect(throws: LeaseLost.self) { try await database.write(stale) }
        #expect(try await database.customer(world: "w", name: "stale") == nil)
        // A's renewals no longer hold the world; B's writes go through.
        #expect(try await database.renewLeases(owner: "A", address: "http://a", ttlMs: 10_000)["w"] == nil)
        var current = WriteBatch(customers: [customer("under-b")])
        current.leases = ["w": taken.epoch]
        try await database.write(current)
        #expect(try await database.customer(world: "w", name: "under-b") != nil)
        #expect(try await database.customer(world: "w", name: "under-a") != nil)
        // The heartbeat's count of live instances agrees with the listing.
        _ = try await database.renewLeases(owner: "B", address: "http://b", ttlMs: 10_000)
        let live = try await database.liveInstances(withinMs: 60_000)
        #expect(try await database.liveInstanceCount(withinMs: 60_000) == live.count && !live.isEmpty)
        await database.close()
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil)) func aHandedBackWorldIsTakenUnderAHigherEpochNeverAnOldOne() async throws {
        let database = try await temporaryDatabase(.postgres)
        let first = try await database.acquireLease(world: "w", owner: "A", address: "http://a", ttlMs: 60_000)
        // B takes it after A's lease lapsed, then hands it back (SIGTERM, rebalancing).
        try await database.releaseLeases(owner: "A", worlds: ["w"])
        let second = try await database.acquireLease(world: "w", owner: "B", address: "http://b", ttlMs: 60_000)
        try await database.releaseLeases(owner: "B")
        let third = try await database.acquireLease(world: "w", owner: "C", address: "http://c", ttlMs: 60_000)
        #expect([first.epoch, second.epoch, third.epoch] == [1, 2, 3])
        // A, paused since epoch 1, cannot write over C.
        var stale = WriteBatch(customers: [customer("from-a")])
        stale.leases = ["w": first.epoch]
        await #expect(throws: LeaseLost.self) { try await database.write(stale) }
        // A handed-back lease is not renewed by its former owner's heartbeat.
        #expect(try await database.renewLeases(owner: "B", address: "http://b", ttlMs: 60_000).isEmpty)
        await database.close()
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil)) func withLeasesEveryWriteOfAWorldNotHeldIsRefused() async throws {
        let database = try await temporaryDatabase(.postgres)
        database.leaseBook.activate()
        let lease = try await database.acquireLease(world: "w", owner: "A", address: "http://a", ttlMs: 60_000)
        // A batch that names no epoch (a scheduler's, a job's) is fenced by what this process holds.
        await #expect(throws: LeaseLost.self) { try await database.write(WriteBatch(customers: [customer("unheld")])) }
        await #expect(throws: LeaseLost.self) { try await database.deleteTransactions(world: "w", bundleId: "b", customer: nil) }
        database.leaseBook.hold("w", epoch: lease.epoch)
        try await database.write(WriteBatch(customers: [customer("held")]))
        #expect(try await database.customer(world: "w", name: "held") != nil)
        #expect(try await database.customer(world: "w", name: "unheld") == nil)
        await database.close()
    }

    @Test(.enabled(if: TestEngine.postgresURL != nil)) func identifierBlocksNeverOverlapAndRiseAboveTheTables() async throws {
        let database = try await temporaryDatabase(.postgres)
        let first = try await database.takeIdentifierBlock(size: 1000, floor: (id: 5_000, seq: 70))
        #expect(first.id == 5_000 && first.seq == 70)
        let second = try await database.takeIdentifierBlock(size: 1000, floor: (id: 5_000, seq: 70))
        #expect(second.id == 6_000 && second.seq == 1_070)
        // A floor above every block (rows written by a store before it had blocks) moves them up.
        let third = try await database.takeIdentifierBlock(size: 1000, floor: (id: 50_000, seq: 9_000))
        #expect(third.id == 50_000 && third.seq == 9_000)
        await database.close()
    }

    /// A write holds its fence until it commits. The owner's heartbeat (which only extends the
    /// expiry) goes through meanwhile; another instance's take-over (a new epoch) waits for the
    /// write, then wins: the new owner never loads the world without that write.
    @Test(.enabled(if: TestEngine.postgresURL != nil)) func aHeartbeatDoesNotWaitForAWriteButATakeOverDoes() async throws {
        let database = try await temporaryDatabase(.postgres)
        let lease = try await database.acquireLease(world: "w", owner: "A", address: "http://a", ttlMs: 60_000)
        let (opened, open) = AsyncStream.makeStream(of: Void.self)
        let (inside, entered) = AsyncStream.makeStream(of: Void.self)
        let write = Task {
            try await database.perform(fencing: ["w"], explicit: ["w": lease.epoch]) { sql in
                try await sql.raw("INSERT INTO world_leases (world, owner, address, epoch, expires_ms) VALUES ('marker', 'A', 'x', 1, 0)").run()
                entered.yield()
                for await _ in opened { break }
            }
        }
        for await _ in inside { break }
        // The write is open and holds its fence: the owner's renewal still answers (a renewal that
        // waited for the write would wait forever; 30 s bounds that hang, it is no speed limit).
        let renewed = await withTaskGroup(of: Int64?.self) { group in
            group.addTask { (try? await database.renewLeases(owner: "A", address: "http://a", ttlMs: 60_000))?["w"] }
            group.addTask { try? await Task.sleep(for: .seconds(30)); return -1 }
            let first = await group.next()!
            if first == -1 { open.yield() }  // let the write end, so the test fails instead of hanging
            group.cancelAll()
            await group.waitForAll()
            return first
        }
        #expect(renewed == lease.epoch, "the heartbeat waited for the write")
        // A hands the world back; B's take-over must wait for the open write.
        try await database.releaseLeases(owner: "A", worlds: ["w"])
        let takeOver = Task { try await database.acquireLease(world: "w", owner: "B", address: "http://b", ttlMs: 60_000) }
        // Watched on the heartbeat's connection: the take-over waits on one of the shared readers,
        // and a read queued behind it there would wait for the write too, which waits for this test.
        let probe = database.engine.leaseSQL
        var waiting = false
        let deadline = ContinuousClock.now + .seconds(30)  // bounds a take-over that never waits; no speed limit
        while !waiting && ContinuousClock.now < deadline {
            waiting = try await probe.raw("""
                SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                """).first(decodingColumn: "n", as: Int.self) ?? 0 > 0
            if !waiting { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(waiting, "the take-over did not wait for the open write")
        let markers = try await probe.raw("SELECT COUNT(*) AS n FROM world_leases WHERE world = 'marker'").first(decodingColumn: "n", as: Int.self)
        #expect(markers == 0, "the write has not committed")
        open.yield()
        open.finish()
        try await write.value
        let taken = try await takeOver.value
        #expect(taken.owner == "B" && taken.epoch == lease.epoch + 1)
        #expect(try await database.lease(world: "marker") != nil)
        await database.close()
    }
}
