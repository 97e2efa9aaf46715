import Foundation
@testable import OpenStoreKit
@testable import StoreEngine
import StoreModel
import StoreStorage
import Testing

/// `Transaction.updates` when writes commit out of order. A change number is taken when a change
/// is decided, and writes overlap (the scheduler commits from a detached task while the world
/// decides the next batch), so a lower change number can become durable after a higher one. A
/// resume position must still have nothing missing below it.
@Suite struct UpdatesResumeRaceTests {
    /// Two writers: the slow one takes the lower change number and reserves its place the way a
    /// world's commit does, then is delayed; the fast one (a real purchase) takes a higher change
    /// number and commits first.
    @Test(.timeLimit(.minutes(1))) func aLowerChangeCommittedLateIsNeitherLostNorRepeated() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let engine = store.store
            let env = await engine.worlds.env
            let first = try await engine.world(world).purchase(.init(bundleId: ClientTestStore.bundle, productId: "k.seeds", customer: "rex"))
            let firstID = try #require(first.transaction.flatMap { Int64($0.payload.transactionId) })
            let start = try await Self.read(try await engine.transactionUpdates(bundleId: ClientTestStore.bundle, customer: "rex", after: nil, world: world)).caughtUp

            // A client library listener, connected throughout.
            let listener = TransactionUpdatesTests.Listener(store.connection("rex", world: world))
            defer { listener.stop() }
            try await store.waitForFeeds(1)
            #expect(try await listener.first(1).map(\.id) == [UInt64(firstID)])

            // Writer 1 decides a change (a new consumable purchase of rex's) and reserves its place.
            let template = try #require(try await env.database.transaction(id: firstID))
            var slow = template
            slow.id = env.identifiers.nextId()
            slow.seq = env.identifiers.nextSeq()
            var payload = try TransactionPayload(json: Array(template.payload.utf8))
            payload.transactionId = String(slow.id)
            payload.originalTransactionId = String(slow.id)
            slow.payload = String(decoding: payload.jsonBytes, as: UTF8.self)
            let reservation = env.feed.reserve(world: world, [slow])

            // Writer 2 commits a higher change number first.
            let fast = try await engine.world(world).purchase(.init(bundleId: ClientTestStore.bundle, productId: "k.guide", customer: "rex"))
            let fastID = try #require(fast.transaction.flatMap { Int64($0.payload.transactionId) })
            let fastRecord = try #require(try await env.database.transaction(id: fastID))
            #expect(fastRecord.seq > slow.seq)

            // The fast change is durable, but no feed may hand out a position past the slow one:
            // a feed resumed now catches up below it and sends nothing yet.
            let meanwhile = try await engine.transactionUpdates(bundleId: ClientTestStore.bundle, customer: "rex", after: start, world: world)
            var waiting = meanwhile.makeAsyncIterator()
            let early = try await Self.read(&waiting)
            #expect(early.changes.isEmpty)
            #expect(early.caughtUp < slow.seq)
            #expect(listener.received.value.count == 1)

            // Writer 1's write lands: both arrive, lower change first.
            try await env.database.write(WriteBatch(transactions: [slow]))
            env.feed.publish(reservation, [slow])
            var live: [(position: Int64?, change: Int64, id: String)] = []
            while live.count < 2, let update = await waiting.next() {
                if case .transaction(let position, let change, let signed) = update { live.append((position, change, signed.payload.transactionId)) }
            }
            #expect(live.map(\.id) == [String(slow.id), String(fastID)])
            #expect(live.map(\.position) == [slow.seq, fastRecord.seq])
            #expect(live.map(\.change) == [slow.seq, fastRecord.seq])

            // Resumed from the position in between: the fast change once, nothing lost or repeated.
            let between = try await Self.read(try await engine.transactionUpdates(
                bundleId: ClientTestStore.bundle, customer: "rex", after: slow.seq, world: world))
            #expect(between.changes == [String(fastID)])
            #expect(between.caughtUp >= fastRecord.seq)
            // Resumed from before both: both, in change order.
            let before = try await Self.read(try await engine.transactionUpdates(
                bundleId: ClientTestStore.bundle, customer: "rex", after: start, world: world))
            #expect(before.changes == [String(slow.id), String(fastID)])

            // The client library saw each once, in change order.
            let received = try await listener.first(3)
            #expect(received.map(\.id) == [UInt64(firstID), UInt64(slow.id), UInt64(fastID)])
            #expect(env.feed.reservedCount(world: world) == 0)
        }
    }

    /// A write that fails gives up its place: later changes stop waiting for it.
    @Test(.timeLimit(.minutes(1))) func anAbandonedWriteReleasesTheChangesAfterIt() async throws {
        try await ClientTestStore.with { store in
            let world = try await store.makeWorld()
            let engine = store.store
            let env = await engine.worlds.env
            try await store.admin(.PUT, ClientTestStore.api(world) + "/customers/sam", [:])
            var feed = try await engine.transactionUpdates(bundleId: ClientTestStore.bundle, customer: "sam", after: nil, world: world).makeAsyncIterator()
            _ = try await Self.read(&feed)
            let template = TransactionRecord(
                id: env.identifiers.nextId(), world: world, seq: env.identifiers.nextSeq(), originalId: 0, bundleId: ClientTestStore.bundle,
                customer: "sam", productId: "k.seeds", productKind: "consumable", groupId: nil, purchaseMs: 0, expiresMs: nil,
                revokedMs: nil, finished: false, orderId: "X", ownership: "PURCHASED", payload: "{}")
            let reservation = env.feed.reserve(world: world, [template])
            let bought = try await engine.world(world).purchase(.init(bundleId: ClientTestStore.bundle, productId: "k.guide", customer: "sam"))
            env.feed.abandon(reservation)
            guard case .transaction(_, _, let signed) = await feed.next() else { throw TestFailure("no update after the abandoned write") }
            #expect(signed.payload.transactionId == bought.transaction?.payload.transactionId)
        }
    }

    /// The client's cursor: a first connection dropped before `caughtUp` sends the unfinished
    /// transactions again; each is yielded once.
    @Test func theClientSkipsAChangeItAlreadyYielded() {
        var cursor = UpdatesCursor()
        var admitted: [Bool] = []
        admitted += [cursor.admits(5), cursor.admits(7)]
        cursor.passed(nil)
        // Dropped; the first connection again.
        admitted += [cursor.admits(5), cursor.admits(7)]
        cursor.passed("9")
        let position = cursor.position
        admitted.append(cursor.admits(10))
        cursor.passed("10")
        admitted += [cursor.admits(10), cursor.admits(3), cursor.admits(11), cursor.admits(nil)]
        #expect(position == "9")
        #expect(admitted == [true, true, false, false, true, false, false, true, true])
    }

    /// The changes a feed sends before `caughtUp` (transaction IDs) and the position it caught up at.
    static func read(_ feed: AsyncStream<TransactionUpdate>) async throws -> (changes: [String], caughtUp: Int64) {
        var iterator = feed.makeAsyncIterator()
        return try await read(&iterator)
    }

    static func read(_ iterator: inout AsyncStream<TransactionUpdate>.AsyncIterator) async throws -> (changes: [String], caughtUp: Int64) {
        var changes: [String] = []
        while let update = await iterator.next() {
            switch update {
            case .transaction(_, _, let signed): changes.append(signed.payload.transactionId)
            case .caughtUp(let position): return (changes, position)
            case .subscriptionStatus, .storefront: continue
            }
        }
        throw TestFailure("the feed ended before catching up")
    }
}
