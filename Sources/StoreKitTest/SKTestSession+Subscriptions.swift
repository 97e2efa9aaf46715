import Foundation
import StoreEngine
import StoreModel

/// Subscription actions by product, and the session's clock.
extension SKTestSession {
    /// Ends the current period of the account's subscription to `productIdentifier` now; it does
    /// not renew.
    public func expireSubscription(productIdentifier: String) throws {
        let item = try subscription(productIdentifier)
        let world = world
        _ = try blocking { try await $0.world(world).expireSubscription(transactionId: item) }
    }

    /// "Ends the previous subscription period and begins the next period": the renewal
    /// transaction is in `Transaction.currentEntitlements` when this returns.
    public func forceRenewalOfSubscription(productIdentifier: String) throws {
        let item = try subscription(productIdentifier)
        let world = world
        _ = try blocking { try await $0.world(world).forceRenewal(transactionId: item) }
    }

    /// Moves the session's clock forward by `interval` seconds (Xcode has no such control):
    /// every renewal, billing retry, grace-period end, expiry and server notification that falls
    /// due in between is applied, in order, before this returns.
    public func advanceTime(by interval: TimeInterval) throws {
        guard interval.isFinite, interval >= 0 else {
            throw SKTestError(.invalidAction, "advanceTime(by: \(interval)): time only moves forward, by a finite number of seconds")
        }
        let world = world, ms = Int64((interval * 1000).rounded())
        _ = try blocking { try await $0.advanceTime(world, byMs: ms) }
    }

    /// The same, by a `Duration`.
    public func advanceTime(by duration: Duration) throws {
        let (seconds, attoseconds) = duration.components
        try advanceTime(by: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }

    /// The session's current time: what the store stamps purchases and renewals with.
    public var currentDate: Date {
        let world = world
        let ms = (try? blocking { try await $0.world(world).nowMs() }) ?? Int64(Date().timeIntervalSince1970 * 1000)
        return Self.date(ms)
    }

    /// The latest transaction ID of the account's subscription to `productIdentifier`.
    private func subscription(_ productIdentifier: String) throws -> String {
        guard let product = host.catalog.products.first(where: { $0.id == productIdentifier }) else {
            throw SKTestError(.invalidProductIdentifier, "no product \(productIdentifier) in the session's configuration file")
        }
        guard product.kind == .autoRenewable else {
            throw SKTestError(.invalidProductType, "\(productIdentifier) is not an auto-renewable subscription")
        }
        let world = world, customer = customer
        return try blocking { store in
            let statuses = try await store.world(world).subscriptionStatuses(bundleId: HostedStore.bundleID, customer: customer)
            guard let item = statuses.first(where: { $0.transaction.payload.productId == productIdentifier })
                ?? statuses.first(where: { $0.renewalInfo.payload.autoRenewProductId == productIdentifier }) else {
                throw SKTestError(.noSubscriptionFound, "the session's account has no subscription to \(productIdentifier)")
            }
            return item.transaction.payload.transactionId
        }
    }
}
