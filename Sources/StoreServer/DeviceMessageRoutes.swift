import Foundation
import Hummingbird
import StoreEngine

/// What the App Store shows the customer over the app: StoreKit Messages (`Message.messages`,
/// `Message.display(in:)`) and the rating prompt (`AppStore.requestReview(in:)`). Served for the
/// default world under `/storekit/v1/apps/…` and for any world under `/storekit/v1/worlds/{world}/apps/…`.
struct DeviceMessageRoutes {
    let store: AppStore

    struct MessageList: Encodable { var messages: [StoreMessage] }
    struct ReviewBody: Decodable { var appVersion: String }

    func register(on router: Router<StoreRequestContext>) {
        register(on: router.group("storekit/v1"), scoped: false)
        register(on: router.group("storekit/v1/worlds/:world"), scoped: true)
    }

    private func register(on api: RouterGroup<StoreRequestContext>, scoped: Bool) {
        @Sendable func world(_ context: StoreRequestContext) throws -> String {
            scoped ? try context.pathValue("world") : AppStore.defaultWorld
        }
        let customer = api.group("apps/:bundleId/customers/:customer")
        customer.get("messages") { _, context in
            let messages = try await context.world(try world(context), in: store).messages(
                bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"))
            return try JSONResponse.ok(MessageList(messages: messages))
        }
        customer.post("messages/:messageId/display") { _, context in
            let message = try await context.world(try world(context), in: store).displayMessage(
                try context.pathValue("messageId"), bundleId: try context.pathValue("bundleId"),
                customer: try context.pathValue("customer"))
            return try JSONResponse.ok(message)
        }
        customer.post("request-review") { request, context in
            let body = try await request.decodeJSON(ReviewBody.self)
            let decision = try await context.world(try world(context), in: store).requestReview(
                bundleId: try context.pathValue("bundleId"), customer: try context.pathValue("customer"),
                appVersion: body.appVersion)
            return try JSONResponse.ok(decision)
        }
    }
}
