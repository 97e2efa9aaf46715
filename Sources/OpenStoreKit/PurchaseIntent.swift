import Foundation
import StoreKitTypes

/// `PurchaseIntent` (iOS 16.4): a purchase the customer started outside the app, by tapping a
/// promoted in-app purchase or a win-back offer on the App Store's product page.
public struct PurchaseIntent: Sendable {
    /// The product to buy.
    public let product: Product
    /// The offer to apply (win-back), if any.
    public let offer: Product.SubscriptionOffer?
    /// The product's ID.
    public var id: Product.ID { product.id }

    /// An intent to buy `product`, with `offer` applied if one is given.
    public init(product: Product, offer: Product.SubscriptionOffer? = nil) {
        self.product = product
        self.offer = offer
    }

    /// `PurchaseIntent.intents`: the intents as they come. There is no App Store product page to
    /// tap here (purchases started on the store's `/store` pages complete there and arrive on
    /// `Transaction.updates`), so the sequence waits, yielding nothing, until its task is
    /// cancelled: an app's listener loop runs and ends as on a device where nobody taps.
    public static var intents: PurchaseIntents { PurchaseIntents() }

    /// `PurchaseIntent.PurchaseIntents`
    public struct PurchaseIntents: AsyncSequence, Sendable {
        /// Each element would be one purchase the customer started outside the app; none ever comes here.
        public typealias Element = PurchaseIntent

        /// Iterates `intents`; it waits until its task is cancelled.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<PurchaseIntent>.Iterator
            /// Held so the stream stays open; nothing yields to it.
            let keepOpen: AsyncStream<PurchaseIntent>.Continuation
            /// Suspends until the task is cancelled, then returns nil.
            public mutating func next() async -> PurchaseIntent? { await base.next() }
        }

        /// An iterator that never yields; it ends when the iterating task is cancelled.
        public func makeAsyncIterator() -> AsyncIterator {
            // Never yields; ends when the iterating task is cancelled.
            let (stream, continuation) = AsyncStream.makeStream(of: PurchaseIntent.self)
            return AsyncIterator(base: stream.makeAsyncIterator(), keepOpen: continuation)
        }
    }
}
