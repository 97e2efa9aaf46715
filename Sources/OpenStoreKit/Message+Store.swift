import Foundation
import StoreKitTypes

extension Message {
    /// `Message.messages`: the messages the App Store has for the customer (price increase,
    /// billing issue, win-back), each once. The store queues them; this sequence asks for them
    /// when iterated and then every `interval` (StoreKit delivers them when the app comes to the
    /// foreground), until the task is cancelled.
    public static var messages: Messages { Messages(interval: .seconds(2)) }

    /// The same sequence, asking the store every `interval`.
    public static func messages(every interval: Duration) -> Messages { Messages(interval: interval) }

    /// `Message.Messages`: the asynchronous sequence `messages` returns; it never ends on its own.
    public struct Messages: AsyncSequence, Sendable {
        /// Each element is one message not yet displayed, handed out once per sequence.
        public typealias Element = Message
        let interval: Duration

        /// Iterates the messages as the polling task finds them.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Message>.Iterator
            /// Waits for the next new message; nil once the iterating task is cancelled.
            public mutating func next() async -> Message? { await base.next() }
        }

        /// Starts polling the store for this iterator; polling stops when iteration is cancelled.
        public func makeAsyncIterator() -> AsyncIterator {
            let resolved = Result { try OpenStoreKit.connection() }
            let interval = self.interval
            let stream = AsyncStream<Message> { continuation in
                let task = Task {
                    var handed = Set<String>()
                    while !Task.isCancelled {
                        do {
                            for message in try await resolved.get().pendingMessages() where handed.insert(message.id).inserted {
                                continuation.yield(message)
                            }
                        } catch {
                            OpenStoreKit.logger.warning("Message.messages: \(error)")
                        }
                        try? await Task.sleep(for: interval)
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            return AsyncIterator(base: stream.makeAsyncIterator())
        }
    }

    /// `display(in:)`: shows the message (here: tells the store it was shown, so a price
    /// increase consent sheet counts as seen).
    public func display() async throws {
        let connection = try OpenStoreKit.connection()
        _ = try await connection.send(.POST, connection.customer + "/messages/\(StoreConnection.escape(id))/display")
    }
}

extension StoreConnection {
    func pendingMessages() async throws -> [Message] {
        _ = try await start()
        struct Body: Decodable {
            struct Item: Decodable { var id: String; var reason: String; var displayedDate: Int64? }
            var messages: [Item]
        }
        return try decode(Body.self, try await send(.GET, customer + "/messages")).messages
            .filter { $0.displayedDate == nil }
            .map { Message(id: $0.id, reason: .init(rawValue: $0.reason)) }
    }
}
