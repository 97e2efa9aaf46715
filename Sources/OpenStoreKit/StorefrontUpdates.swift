import Foundation
import StoreKitTypes
import StoreModel

extension StoreKitTypes.Storefront {
    /// `Storefront.updates`: the customer's storefront each time it changes (through the admin
    /// API or the `/manage` pages). Pushed: the store sends a `storefront` hint on the updates feed,
    /// and the account is read again after every (re)connection. The storefront at the start is
    /// not yielded, nor one equal to the last yielded.
    public static var updates: Storefronts { Storefronts() }

    /// `Storefront.Storefronts`: the asynchronous sequence of `updates`.
    public struct Storefronts: AsyncSequence, Sendable {
        /// Each element is the customer's new storefront.
        public typealias Element = StoreKitTypes.Storefront
        let connection: Result<StoreConnection, any Error>

        init() {
            self.connection = Result { try OpenStoreKit.connection() }
        }

        /// Iterates the storefront changes as the updates feed reports them.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            /// Waits for the next storefront change; nil when the sequence ends.
            public mutating func next() async -> Element? { await base.next() }
        }

        /// Opens the updates feed for this iterator; it stops when iteration is cancelled.
        public func makeAsyncIterator() -> AsyncIterator {
            let connection = self.connection
            let stream = AsyncStream<Element> { continuation in
                let task = Task {
                    guard case .success(let store) = connection else {
                        if case .failure(let error) = connection { OpenStoreKit.logger.error("Storefront.updates: \(error)") }
                        continuation.finish()
                        return
                    }
                    var last = try? await store.customerStorefront()
                    for await item in TransactionUpdates(connection: connection, skipsOwnPurchases: false).items() {
                        let code: String?
                        switch item {
                        case .storefront(let pushed): code = pushed
                        // After a (re)connection: a change while away is read, not replayed.
                        case .caughtUp: code = try? await store.customerStorefront()
                        default: continue
                        }
                        guard let code, code != last else { continue }
                        last = code
                        if let front = Element.lookup(code) { continuation.yield(front) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            return AsyncIterator(base: stream.makeAsyncIterator())
        }
    }

    /// The storefront with this ISO 3166-1 alpha-3 code, as StoreKit describes it.
    static func lookup(_ code: String) -> StoreKitTypes.Storefront? {
        guard let front = StoreModel.Storefront.lookup(code) else { return nil }
        return StoreKitTypes.Storefront(id: front.id, countryCode: front.countryCode, currency: Locale.Currency(front.currency))
    }
}
