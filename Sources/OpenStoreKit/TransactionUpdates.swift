import AsyncHTTPClient
import Foundation
import NIOCore
import StoreKitTypes

/// What the store's updates feed tells a client: a transaction change, the end of the backlog
/// (`caughtUp`, after every connection and reconnection), or a live hint that a subscription's
/// status or the storefront changed with no transaction.
enum StoreFeedItem: Sendable {
    case transaction(VerificationResult<Transaction>)
    case caughtUp
    case subscriptionStatus(groupID: String)
    case storefront(countryCode: String)
}

/// The client side of `Transaction.updates`: one Server-Sent Events connection to the store's
/// updates feed, resumed after a drop from the last event's ID (`Last-Event-ID`, a position below
/// which the store sent every durable change), so nothing is lost; a change number already
/// yielded (the unfinished transactions again after a drop before `caughtUp`) is skipped, so
/// nothing is repeated. Reconnects with exponential backoff (0.1 s doubling to 5 s); a connection
/// silent for longer than `updatesIdleTimeout` (the store sends a heartbeat every 15 s) counts
/// as dropped. A malformed event is logged and skipped. `Status.updates` and `Storefront.updates`
/// listen to the same feed (`items()`).
struct TransactionUpdates: Sendable {
    let connection: Result<StoreConnection, any Error>
    /// Leaves out this process's own purchases, as StoreKit's `updates` does (`OwnPurchases`);
    /// off for listeners that want every change (`Status.updates`).
    var skipsOwnPurchases = true
    static let firstDelay: Duration = .milliseconds(100)
    static let longestDelay: Duration = .seconds(5)

    /// The transactions only: `Transaction.updates`.
    func stream() -> AsyncStream<VerificationResult<Transaction>> {
        let items = items()
        return AsyncStream { continuation in
            let task = Task {
                for await item in items {
                    if case .transaction(let result) = item { continuation.yield(result) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Everything the feed says, across reconnections.
    func items() -> AsyncStream<StoreFeedItem> {
        AsyncStream { continuation in
            let task = Task { await run(continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(_ output: AsyncStream<StoreFeedItem>.Continuation) async {
        let connection: StoreConnection
        do {
            connection = try self.connection.get()
        } catch {
            OpenStoreKit.logger.error("Transaction.updates: \(error)")
            output.finish()
            return
        }
        var cursor = UpdatesCursor()
        var delay = Self.firstDelay
        while !Task.isCancelled {
            do {
                let verifier = try await connection.verifier()
                for try await event in connection.updateEvents(after: cursor.position) {
                    delay = Self.firstDelay
                    if let (result, change) = Self.transaction(in: event, verifier: verifier, connection: connection),
                       cursor.admits(change) {
                        // Live events only: the unfinished ones a listener starts with all come, as on a device.
                        let own = skipsOwnPurchases && event.id != nil
                            ? await connection.ownPurchases.isOwn(result.unsafePayloadValue) : false
                        if !own { output.yield(.transaction(result)) }
                    } else if let hint = Self.hint(in: event, connection: connection) {
                        output.yield(hint)
                    }
                    cursor.passed(event.id)
                }
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                connection.logger.warning("Transaction.updates: connection lost (\(error)); reconnecting in \(delay)")
            }
            if Task.isCancelled { break }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, Self.longestDelay)
        }
        output.finish()
    }

    /// The item a `caughtUp`, `status` or `storefront` event stands for; nil for other events, and
    /// for a malformed one (logged).
    static func hint(in event: ServerSentEvent, connection: StoreConnection) -> StoreFeedItem? {
        struct Body: Decodable {
            var subscriptionGroupIdentifier: String?
            var countryCode: String?
        }
        switch event.type {
        case "caughtUp": return .caughtUp
        case "status", "storefront":
            let body = try? JSONDecoder().decode(Body.self, from: Data(event.data.utf8))
            if let group = body?.subscriptionGroupIdentifier, event.type == "status" { return .subscriptionStatus(groupID: group) }
            if let code = body?.countryCode, event.type == "storefront" { return .storefront(countryCode: code) }
            connection.logger.warning("Transaction.updates: skipped a malformed \(event.type) event")
            return nil
        default: return nil
        }
    }

    /// The transaction an event carries and its change number; nil for other events, and for a
    /// malformed one (logged).
    static func transaction(in event: ServerSentEvent, verifier: LocalVerifier, connection: StoreConnection) -> (VerificationResult<Transaction>, Int64?)? {
        guard event.type == "transaction" else { return nil }
        struct Body: Decodable {
            var signedTransaction: String
            var change: Int64?
        }
        do {
            let body = try JSONDecoder().decode(Body.self, from: Data(event.data.utf8))
            return (try verifier.transaction(body.signedTransaction), body.change)
        } catch {
            connection.logger.warning("Transaction.updates: skipped a malformed event (id \(event.id ?? "none")): \(error)")
            return nil
        }
    }
}

extension StoreConnection {
    /// The store's updates feed as events, after `position` (nil: from the unfinished
    /// transactions). Ends with an error when the connection drops or stays silent too long.
    func updateEvents(after position: String?) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
        let lastActivity = LockedValue(ContinuousClock.now)
        let idle = configuration.updatesIdleTimeout
        let url = customer + "/updates"
        let reader = Task {
            do {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Accept", value: "text/event-stream")
                if let position { request.headers.add(name: "Last-Event-ID", value: position) }
                let response: HTTPClientResponse
                do {
                    // The feed is open-ended: silence, not a deadline, decides it is gone.
                    response = try await http.execute(request, timeout: .hours(24 * 365))
                } catch {
                    throw Self.networkError(error, url: url)
                }
                guard response.status == .ok else {
                    let body = try await response.body.collect(upTo: 64 * 1024)
                    throw refusal(Answer(status: Int(response.status.code), body: Data(body.readableBytesView)), refusals: .general)
                }
                var parser = ServerSentEventParser()
                for try await chunk in response.body {
                    lastActivity.withLock { $0 = .now }
                    for event in parser.feed(chunk.readableBytesView) { continuation.yield(event) }
                }
                continuation.finish(throwing: UpdatesFeedEnded())
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                if ContinuousClock.now - lastActivity.withLock({ $0 }) > idle {
                    reader.cancel()
                    continuation.finish(throwing: UpdatesFeedSilent(seconds: idle))
                    return
                }
            }
        }
        continuation.onTermination = { _ in
            reader.cancel()
            watchdog.cancel()
        }
        return events
    }
}

/// The store closed the feed (it restarts, or the world was deleted).
struct UpdatesFeedEnded: Error, CustomStringConvertible {
    var description: String { "the store closed the updates feed" }
}

/// Nothing arrived, not even a heartbeat, for longer than the idle timeout.
struct UpdatesFeedSilent: Error, CustomStringConvertible {
    var seconds: Duration
    var description: String { "no event or heartbeat for \(seconds)" }
}

/// Where a client is in its updates feed: the last resume position the store gave (`id`), and the
/// change numbers yielded since. The store sends each change once per connection, but a
/// connection dropped before its first position starts over with the unfinished transactions:
/// those come again, and are skipped here.
struct UpdatesCursor: Sendable, Equatable {
    private(set) var position: String?
    /// Change numbers yielded above `position`: only those can come again.
    private var yielded = Set<Int64>()

    /// Whether a transaction event with this change number is new (nil: an older store that sends
    /// none; trusted).
    mutating func admits(_ change: Int64?) -> Bool {
        guard let change else { return true }
        if let at = position.flatMap(Int64.init), change <= at { return false }
        return yielded.insert(change).inserted
    }

    /// An event's `id` moved the resume position.
    mutating func passed(_ id: String?) {
        guard let id, !id.isEmpty else { return }
        position = id
        if let at = Int64(id), !yielded.isEmpty { yielded = yielded.filter { $0 > at } }
    }
}
