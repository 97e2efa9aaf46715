import Foundation
import StoreModel
import StoreStorage

/// One entry of a customer's `Transaction.updates` feed.
public enum TransactionUpdate: Sendable {
    /// A transaction as it stands after a change, freshly signed. `change` is the change number
    /// (unique per change, for de-duplication). `position` is the resume point to hand back after
    /// a dropped connection: every change at or below it was durable and sent. It is nil for the
    /// unfinished transactions a first connection starts with (no resume point until `caughtUp`).
    case transaction(position: Int64?, change: Int64, Signed<TransactionPayload>)
    /// Everything up to `position` was sent (or, on a first connection, every unfinished
    /// transaction); what follows is live.
    case caughtUp(position: Int64)
    /// A subscription's status changed with no transaction (an expiry, billing retry or grace
    /// period, a renewal preference): what pushes `Status.updates`. A live hint, not a change in
    /// the sequence: it has no resume position, and a client that was away reads the statuses again.
    case subscriptionStatus(groupId: String, originalTransactionId: Int64)
    /// The account's storefront changed (ISO 3166-1 alpha-3 code): what pushes `Storefront.updates`.
    case storefront(countryCode: String)
}

extension AppStore {
    /// Most transactions replayed per page when a feed resumes.
    static let updatesPageSize = 500

    func transactionUpdates(
        bundleId: String, customer: String, after position: Int64?, world worldId: String
    ) async throws -> AsyncStream<TransactionUpdate> {
        let app = try app(bundleId)
        let world = try await self.loadedWorld(worldId)
        guard try await world.customer(customer) != nil else {
            throw StoreError.customerNotFound("no customer named \(customer) in world \(worldId)")
        }
        if let position, position < 0 { throw StoreError.malformedRequest("a resume position is 0 or more") }
        // Subscribe before reading the backlog: changes up to `durable` are read from the
        // database, every later one arrives live.
        let (live, durable) = worlds.env.feed.subscribe(.init(world: worldId, bundleId: app.bundleId, customer: customer))
        let database = self.database
        let (updates, continuation) = AsyncStream.makeStream(of: TransactionUpdate.self, bufferingPolicy: .unbounded)
        let task = Task {
            do {
                var head: Int64
                if let position {
                    var after = position
                    replay: while after < durable {
                        let page = try await database.transactionsChanged(
                            world: worldId, bundleId: app.bundleId, customer: customer, afterSeq: after, limit: Self.updatesPageSize)
                        for record in page {
                            // Above `durable` is live's business: it comes in change order there.
                            guard record.seq <= durable else { break replay }
                            continuation.yield(.transaction(position: record.seq, change: record.seq, try self.sign(record, nowMs: await world.nowMs())))
                        }
                        guard let last = page.last, page.count == Self.updatesPageSize else { break }
                        after = last.seq
                    }
                    head = max(position, durable)
                } else {
                    let (unfinished, now) = try await world.transactions(bundleId: app.bundleId, customer: customer, scope: .unfinished)
                    for record in unfinished where record.seq <= durable {
                        continuation.yield(.transaction(position: nil, change: record.seq, try self.sign(record, nowMs: now)))
                    }
                    head = durable
                }
                continuation.yield(.caughtUp(position: head))
                for await change in live {
                    switch change {
                    case .transactions(let records):
                        for record in records where record.seq > head {
                            head = record.seq
                            continuation.yield(.transaction(position: head, change: head, try self.sign(record, nowMs: await world.nowMs())))
                        }
                    case .subscriptions(let records):
                        for record in records {
                            continuation.yield(.subscriptionStatus(groupId: record.groupId, originalTransactionId: record.originalId))
                        }
                    case .storefront(let code):
                        continuation.yield(.storefront(countryCode: code))
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
