import Foundation
import StoreKitTypes
import StoreModel

extension StoreKitTypes.Storefront {
    /// `Storefront.updates`: the customer's storefront each time it changes (through the admin
    /// API or the `/manage` pages). The store pushes no storefront events, so the account is read
    /// every 2 s while the sequence is iterated; the storefront at the start is not yielded.
    public static var updates: Storefronts { Storefronts(interval: .seconds(2)) }

    /// `Storefront.Storefronts`: the asynchronous sequence of `updates`.
    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = StoreKitTypes.Storefront
        let connection: Result<StoreConnection, any Error>
        let interval: Duration

        init(interval: Duration) {
            self.connection = Result { try OpenStoreKit.connection() }
            self.interval = interval
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            public mutating func next() async -> Element? { await base.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator {
            let connection = self.connection, interval = self.interval
            let stream = AsyncStream<Element> { continuation in
                let task = Task {
                    var last: String??
                    while !Task.isCancelled {
                        do {
                            let code = try await connection.get().customerStorefront()
                            if let previous = last, previous != code, let code, let front = Element.lookup(code) {
                                continuation.yield(front)
                            }
                            last = .some(code)
                        } catch {
                            if case .failure = connection {
                                OpenStoreKit.logger.error("Storefront.updates: \(error)")
                                break
                            }
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

    /// The storefront with this ISO 3166-1 alpha-3 code, as StoreKit describes it.
    static func lookup(_ code: String) -> StoreKitTypes.Storefront? {
        guard let front = StoreModel.Storefront.lookup(code) else { return nil }
        return StoreKitTypes.Storefront(id: front.id, countryCode: front.countryCode, currency: Locale.Currency(front.currency))
    }
}
