import Foundation
import StoreModel

/// One world of the store, held by whoever acts in it. Every verb of the App Store that happens
/// in a world (a purchase, a Transaction Manager action, a device or dashboard read) lives on
/// this handle, so a call cannot act on the default world by forgetting to name one: code that
/// means the default world says `store.world(AppStore.defaultWorld)` once.
///
/// The verbs are split by who calls them: `StoreWorld+Device.swift` (StoreKit's device API and
/// the store pages), `StoreWorld+ServerAPI.swift`, `StoreWorld+TransactionManager.swift` and
/// `StoreWorld+Dashboard.swift`. The handle is cheap: it holds no state of its own and may be
/// made per request; the world is loaded (or found at another instance) when a verb runs.
public struct StoreWorld: Sendable {
    /// The store the world belongs to.
    public let store: AppStore
    /// The world's identifier (`default`, or one created with `AppStore.createWorld`).
    public let id: String

    /// The world's current time in milliseconds, on its own clock.
    public func nowMs() async throws -> Int64 {
        try await store.loadedWorld(id).nowMs()
    }

    /// Sells a product in this world, as `Product.purchase(options:)` does, with an offer option
    /// or none; a refused offer throws `OfferError`. Every purchase takes the one path
    /// (`World.purchase(_:offer:allowPending:)`), whatever starts it. The transaction is durable
    /// before this returns, and signed with the store's chain.
    public func purchase(_ request: PurchaseRequest, offer: PurchaseOfferRequest? = nil) async throws -> PurchaseOutcome {
        var request = request
        request.world = id
        let world = try await store.loadedWorld(id)
        let result = try await world.purchase(request, offer: offer)
        return try await store.outcome(result, world: world)
    }
}

extension AppStore {
    /// The handle for one world; nothing is loaded until a verb runs.
    public func world(_ id: String) -> StoreWorld {
        StoreWorld(store: self, id: id)
    }
}
