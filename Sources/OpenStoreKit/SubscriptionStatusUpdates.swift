import Foundation
import StoreKitTypes

extension Product.SubscriptionInfo.Status {
    /// `Status.updates`: a status each time a subscription's status changes (a purchase, renewal,
    /// upgrade, refund or revocation, expiry, billing retry or grace period, auto-renew turned
    /// off or on). Never ends, like `Transaction.updates`.
    ///
    /// Pushed, on the same feed as `Transaction.updates`: a subscription's transaction change, or
    /// the store's `status` hint for a change that makes no transaction (an expiry, billing retry,
    /// grace period, a renewal preference), makes the client read the statuses again, as it does
    /// after every reconnection. Only statuses that differ from the last ones seen are yielded, so
    /// the statuses at the start are not.
    public static var updates: Statuses { Statuses() }

    /// `Status.all`: every subscription group's statuses, one element per group, then ends.
    public static var all: AsyncStream<(groupID: String, statuses: [Product.SubscriptionInfo.Status])> {
        let resolved = Result { try OpenStoreKit.connection() }
        return AsyncStream { continuation in
            let task = Task {
                do {
                    let statuses = try await resolved.get().subscriptionStatuses()
                    var groups: [String] = []
                    for (group, _) in statuses where !groups.contains(group) { groups.append(group) }
                    for group in groups {
                        continuation.yield((group, statuses.filter { $0.group == group }.map(\.status)))
                    }
                } catch {
                    OpenStoreKit.logger.error("Status.all ended early: \(error)")
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `Product.SubscriptionInfo.Status.Statuses`: the asynchronous sequence of `updates`.
    public struct Statuses: AsyncSequence, Sendable {
        /// Each element is one subscription status that changed.
        public typealias Element = Product.SubscriptionInfo.Status
        let connection: Result<StoreConnection, any Error>

        init() {
            // Resolved now, so a connection bound with `withConnection` is the one used.
            self.connection = Result { try OpenStoreKit.connection() }
        }

        /// Iterates the status changes as the feed reports them.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            /// Waits for the next changed status; nil when the sequence ends.
            public mutating func next() async -> Element? { await base.next() }
        }

        /// Opens the feed for this iterator: one feed, and its own checks, per iterator.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: SubscriptionStatusFeed(connection: connection).stream().makeAsyncIterator())
        }
    }
}

/// Turns the pushed feed (subscription transactions, status hints, reconnections) into status changes.
struct SubscriptionStatusFeed: Sendable {
    let connection: Result<StoreConnection, any Error>

    func stream() -> AsyncStream<Product.SubscriptionInfo.Status> {
        AsyncStream { continuation in
            let task = Task { await run(continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ output: AsyncStream<Product.SubscriptionInfo.Status>.Continuation) async {
        let connection: StoreConnection
        do {
            connection = try self.connection.get()
        } catch {
            OpenStoreKit.logger.error("Status.updates: \(error)")
            output.finish()
            return
        }
        let checker = StatusChecker(connection: connection, output: output)
        await checker.check()
        for await item in TransactionUpdates(connection: .success(connection), skipsOwnPurchases: false).items() {
            switch item {
            case .transaction(let result) where result.unsafePayloadValue.subscriptionGroupID != nil:
                await checker.check()
            // After a (re)connection: hints sent while away are not replayed, so read again.
            case .caughtUp, .subscriptionStatus:
                await checker.check()
            default:
                break
            }
        }
        output.finish()
    }
}

/// Asks the store for the statuses and yields those that changed since the last answer.
actor StatusChecker {
    let connection: StoreConnection
    let output: AsyncStream<Product.SubscriptionInfo.Status>.Continuation
    /// The last statuses seen, by original transaction; nil before the first answer.
    private var seen: [UInt64: StatusFingerprint]?

    init(connection: StoreConnection, output: AsyncStream<Product.SubscriptionInfo.Status>.Continuation) {
        self.connection = connection
        self.output = output
    }

    func check() async {
        let statuses: [Product.SubscriptionInfo.Status]
        do {
            statuses = try await connection.subscriptionStatuses().map(\.status)
        } catch {
            if !Task.isCancelled { connection.logger.warning("Status.updates: could not read the statuses (\(error)); trying again") }
            return
        }
        let before = seen
        var now: [UInt64: StatusFingerprint] = before ?? [:]
        for status in statuses {
            let print = StatusFingerprint(status)
            let key = status.transaction.unsafePayloadValue.originalID
            if let before, before[key] == print { continue }
            now[key] = print
            if before != nil { output.yield(status) }
        }
        seen = now
    }
}

/// What makes two statuses of one subscription different to an app.
struct StatusFingerprint: Hashable, Sendable {
    var state: Int
    var transactionID: UInt64
    var revoked: Date?
    var willAutoRenew: Bool
    var autoRenewPreference: String?
    var expirationReason: Int?
    var isInBillingRetry: Bool
    var gracePeriodExpirationDate: Date?
    var priceIncrease: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus

    init(_ status: Product.SubscriptionInfo.Status) {
        let transaction = status.transaction.unsafePayloadValue
        let renewal = status.renewalInfo.unsafePayloadValue
        state = status.state.rawValue
        transactionID = transaction.id
        revoked = transaction.revocationDate
        willAutoRenew = renewal.willAutoRenew
        autoRenewPreference = renewal.autoRenewPreference
        expirationReason = renewal.expirationReason?.rawValue
        isInBillingRetry = renewal.isInBillingRetry
        gracePeriodExpirationDate = renewal.gracePeriodExpirationDate
        priceIncrease = renewal.priceIncreaseStatus
    }
}
