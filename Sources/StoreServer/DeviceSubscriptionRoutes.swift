import Foundation
import Hummingbird
import StoreEngine

/// Device routes for the remaining StoreKit APIs a Transaction Manager can make fail:
/// `Product.SubscriptionInfo.status`, `AppStore.sync()` and `showManageSubscriptions`.
struct DeviceSubscriptionRoutes {
    let store: AppStore

    func register(on router: Router<StoreRequestContext>) {
        register(on: router.group("storekit/v1"))
        register(on: router.group("storekit/v1/worlds/:world"))
    }

    func register(on api: RouterGroup<StoreRequestContext>) {
        api.get("apps/:bundleId/customers/:customer/subscriptions") { _, context in try await statuses(context) }
        api.post("apps/:bundleId/customers/:customer/sync") { _, context in try await sync(context) }
        api.post("apps/:bundleId/customers/:customer/manage-subscriptions") { _, context in
            _ = try store.app(try context.pathValue("bundleId"))
            _ = try context.pathValue("customer")
            try await context.world(try context.world(), in: store).checkSimulatedError("Manage Subscriptions Sheet")
            return try JSONResponse.ok(["shown": true])
        }
    }

    /// `Product.SubscriptionInfo.status(for:)`: each group's state with its transaction and renewal info.
    func statuses(_ context: StoreRequestContext) async throws -> Response {
        struct Item: Encodable {
            var subscriptionGroupID: String
            var state: String
            var status: Int
            var signedTransaction: String
            var signedRenewalInfo: String
        }
        let world = try context.world()
        try await context.world(world, in: store).checkSimulatedError("Subscription Status")
        let items = try await context.world(world, in: store).subscriptionStatuses(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
        let corrupt = try await context.world(world, in: store).simulatesVerificationFailure()
        return try JSONResponse.ok(["statuses": items.map {
            Item(subscriptionGroupID: $0.groupId, state: Self.renewalState($0.status), status: $0.status.rawValue,
                 signedTransaction: VerificationFault.apply($0.transaction.jws, corrupt),
                 signedRenewalInfo: VerificationFault.apply($0.renewalInfo.jws, corrupt))
        }])
    }

    /// `AppStore.sync()`: every transaction, as a restore hands them to the app.
    func sync(_ context: StoreRequestContext) async throws -> Response {
        let world = try context.world()
        try await context.world(world, in: store).checkSimulatedError("App Store Sync")
        let list = try await context.world(world, in: store).transactions(
            bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"), scope: .all)
        let corrupt = try await context.world(world, in: store).simulatesVerificationFailure()
        return try JSONResponse.ok(["signedTransactions": list.map { VerificationFault.apply($0.jws, corrupt) }])
    }

    /// `Product.SubscriptionInfo.RenewalState` names.
    static func renewalState(_ status: SubscriptionStatus) -> String {
        switch status {
        case .active: "subscribed"
        case .expired: "expired"
        case .billingRetry: "inBillingRetryPeriod"
        case .billingGracePeriod: "inGracePeriod"
        case .revoked: "revoked"
        }
    }
}

import StoreModel

/// The "Verification" simulated error: the device gets JWS whose signature doesn't verify, so the
/// app sees `VerificationResult.unverified`, as StoreKit Testing produces it.
enum VerificationFault {
    static func apply(_ jws: String, _ corrupt: Bool) -> String {
        guard corrupt, let last = jws.last else { return jws }
        return String(jws.dropLast()) + (last == "A" ? "B" : "A")
    }
}
