import Foundation
import StoreModel
import StoreStorage

/// One entry of a customer's `Transaction.updates` feed.
public enum TransactionUpdate: Sendable {
    /// A transaction as it stands after a change, freshly signed. `position` is the resume point
    /// to hand back after a dropped connection; it never goes down within a feed.
    case transaction(position: Int64, Signed<TransactionPayload>)
    /// Everything up to `position` was sent (or, on a first connection, every unfinished
    /// transaction); what follows is live.
    case caughtUp(position: Int64)
}

extension AppStore {
    /// Most transactions replayed per page when a feed resumes.
    static let updatesPageSize = 500

    /// A customer's transaction changes, pushed as they become durable: what StoreKit's
    /// `Transaction.updates` delivers (renewals, refunds and revocations, Ask to Buy approvals,
    /// offer-code redemptions, family-sharing grants, purchases made elsewhere).
    ///
    /// - Parameter position: where a previous feed stopped (its last `position`). Nil on a first
    ///   connection: the feed then starts, like StoreKit, with the unfinished transactions.
    /// Live changes that commit while the backlog is read are sent once, never twice.
    public func transactionUpdates(
        bundleId: String, customer: String, after position: Int64?, world worldId: String = AppStore.defaultWorld
    ) async throws -> AsyncStream<TransactionUpdate> {
        let app = try app(bundleId)
        let world = try await self.world(worldId)
        guard try await world.customer(customer) != nil else {
            throw StoreError.customerNotFound("no customer named \(customer) in world \(worldId)")
        }
        if let position, position < 0 { throw StoreError.malformedRequest("a resume position is 0 or more") }
        // Subscribe before reading the backlog, so nothing committed in between is missed.
        let live = worlds.env.feed.subscribe(.init(world: worldId, bundleId: app.bundleId, customer: customer))
        let database = self.database
        let (updates, continuation) = AsyncStream.makeStream(of: TransactionUpdate.self, bufferingPolicy: .unbounded)
        let task = Task {
            do {
                var seen = Set<Int64>()
                var head: Int64
                if let position {
                    head = position
                    while true {
                        let page = try await database.transactionsChanged(
                            world: worldId, bundleId: app.bundleId, customer: customer, afterSeq: head, limit: Self.updatesPageSize)
                        for record in page {
                            seen.insert(record.seq)
                            head = max(head, record.seq)
                            continuation.yield(.transaction(position: head, try self.sign(record, nowMs: await world.nowMs())))
                        }
                        if page.count < Self.updatesPageSize { break }
                    }
                } else {
                    let (unfinished, now) = try await world.transactions(bundleId: app.bundleId, customer: customer, scope: .unfinished)
                    head = try await database.lastTransactionSeq(world: worldId, bundleId: app.bundleId, customer: customer)
                    for record in unfinished {
                        seen.insert(record.seq)
                        head = max(head, record.seq)
                        continuation.yield(.transaction(position: head, try self.sign(record, nowMs: now)))
                    }
                }
                continuation.yield(.caughtUp(position: head))
                for await records in live {
                    for record in records where seen.insert(record.seq).inserted {
                        head = max(head, record.seq)
                        continuation.yield(.transaction(position: head, try self.sign(record, nowMs: await world.nowMs())))
                    }
                }
            } catch {
                // A read failing ends the feed; the client reconnects from its last position.
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return updates
    }

    /// How many `Transaction.updates` feeds are open (for tests and the benchmark).
    public var openUpdateFeeds: Int { worlds.env.feed.listenerCount }
}
