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
    /// Where a verb notes that another instance serves the world (the HTTP front's per-request
    /// record, which forwards the request to the owner); nil outside a request.
    public let misses: WorldMisses?

    /// Runs one verb; a `WorldElsewhere` it throws is noted in `misses` before it leaves the
    /// engine, so the front forwards the request whatever its handler makes of the error.
    func reported<T>(_ verb: () async throws -> T) async throws -> T {
        do {
            return try await verb()
        } catch let elsewhere as WorldElsewhere {
            misses?.record(elsewhere)
            throw elsewhere
        }
    }

    /// The world's current time in milliseconds, on its own clock.
    public func nowMs() async throws -> Int64 {
        try await reported { try await store.nowMs(id) }
    }

    /// Sells a product in this world, as `Product.purchase(options:)` does, with an offer option
    /// or none; a refused offer throws `OfferError`. Every purchase takes the one path
    /// (`World.purchase(_:offer:allowPending:)`), whatever starts it. The transaction is durable
    /// before this returns, and signed with the store's chain.
    public func purchase(_ request: PurchaseRequest, offer: PurchaseOfferRequest? = nil) async throws -> PurchaseOutcome {
        var request = request
        request.world = id
        return try await reported {
            let world = try await store.loadedWorld(id)
            let result = try await world.purchase(request, offer: offer)
            return try await store.outcome(result, world: world)
        }
    }
}

extension AppStore {
    /// The handle for one world; nothing is loaded until a verb runs.
    /// - Parameter misses: the HTTP front's per-request record of worlds served elsewhere.
    public func world(_ id: String, reportingTo misses: WorldMisses? = nil) -> StoreWorld {
        StoreWorld(store: self, id: id, misses: misses)
    }
}
