import Foundation
import StoreKitTypes

extension Transaction {
    /// `Transaction.Transactions`: an asynchronous sequence of verification results. Lists
    /// (`all`, `currentEntitlements`, `unfinished`) end after their last transaction; `updates`
    /// never ends. A store that cannot be reached ends a list early (and logs why), as StoreKit's
    /// sequences do not throw.
    public struct Transactions: AsyncSequence, Sendable {
        /// Each element is a transaction with the verdict on its signature, as StoreKit hands it out.
        public typealias Element = VerificationResult<Transaction>
        let make: @Sendable () -> AsyncStream<Element>

        init(_ make: @escaping @Sendable () -> AsyncStream<Element>) { self.make = make }

        /// A list read once from the store when iteration starts.
        static func list(_ load: @escaping @Sendable (StoreConnection) async throws -> [Element]) -> Transactions {
            // Resolved now, so a connection bound with `withConnection` is the one used.
            let resolved = Result { try OpenStoreKit.connection() }
            return Transactions {
                AsyncStream { continuation in
                    let task = Task {
                        do {
                            for item in try await load(try resolved.get()) { continuation.yield(item) }
                        } catch {
                            OpenStoreKit.logger.error("transaction list ended early: \(error)")
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }
        }

        /// Iterates the verification results of one sequence.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            /// The next transaction; nil after a list's last one (or when a list ends early).
            public mutating func next() async -> Element? { await base.next() }
        }

        /// Starts a fresh read for each iterator, so iterating twice asks the store twice.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: make().makeAsyncIterator()) }
    }
}
