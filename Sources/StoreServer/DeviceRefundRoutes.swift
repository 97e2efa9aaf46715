import Foundation
import Hummingbird
import StoreEngine

/// `Transaction.beginRefundRequest`: the customer asks the App Store for a refund, which sends
/// the developer a CONSUMPTION_REQUEST. Default world under `/storekit/v1/apps/…`, any world under
/// `/storekit/v1/worlds/{world}/apps/…`.
struct DeviceRefundRoutes {
    let store: AppStore

    struct Body: Decodable { var reason: String? }

    func register(on router: Router<StoreRequestContext>) {
        register(on: router.group("storekit/v1"), scoped: false)
        register(on: router.group("storekit/v1/worlds/:world"), scoped: true)
    }

    private func register(on api: RouterGroup<StoreRequestContext>, scoped: Bool) {
        api.post("apps/:bundleId/customers/:customer/transactions/:transactionId/refund-request") { request, context in
            let body = try await request.decodeJSON(Body.self)
            try await context.world(scoped ? try context.pathValue("world") : AppStore.defaultWorld, in: store).checkSimulatedError("Refund Request Sheet")
            let answer = try await context.world(scoped ? try context.pathValue("world") : AppStore.defaultWorld, in: store).requestRefund(
                transactionId: try context.pathValue("transactionId"), reason: body.reason ?? "OTHER",
                bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
            return try JSONResponse.ok(answer)
        }
    }
}
