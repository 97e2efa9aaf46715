import Foundation
import Hummingbird
import StoreEngine
import StoreModel

/// Admin API for server notifications: where an app's notifications go (per world and
/// environment), the outbox as the store sees it, and the refund-request decisions that emit
/// REFUND / REFUND_DECLINED / REFUND_REVERSED.
struct NotificationAdminRoutes {
    let store: AppStore
    let token: String?

    struct URLBody: Decodable {
        var url: String?
        var environment: String?
    }
    struct NotificationList: Encodable { var notifications: [NotificationSummary] }
    struct RefundRequestBody: Decodable { var reason: String? }
    struct DecideBody: Decodable { var grant: Bool? }
    struct RefundRequestList: Encodable { var refundRequests: [RefundRequest] }
    struct SignedTransactionAnswer: Encodable {
        var signedTransaction: String
        var transaction: TransactionPayload
    }

    func register(on router: Router<StoreRequestContext>) {
        let world = router.group("admin/v1/worlds/:world").add(middleware: AdminAccess(token: token))
        world.put("apps/:bundleId/notification-url") { request, context in
            let body = try await request.decodeJSON(URLBody.self)
            return try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).setNotificationURL(
                body.url, bundleId: try context.pathValue("bundleId"), environment: body.environment))
        }
        world.get("apps/:bundleId/notification-url") { _, context in
            try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).notificationURLs(bundleId: try context.pathValue("bundleId")))
        }
        world.get("notifications") { request, context in
            let query = request.uri.queryParameters
            let list = try await context.world(try context.pathValue("world"), in: store).notifications(bundleId: query["bundleId"].map(String.init),
                afterSeq: try request.queryInteger("after", default: 0, range: 0...Int64.max),
                limit: Int(try request.queryInteger("limit", default: 1000, range: 1...10_000)))
            return try JSONResponse.ok(NotificationList(notifications: list))
        }
        world.post("transactions/:transactionId/refund-request") { request, context in
            let body = try await request.decodeJSON(RefundRequestBody.self)
            return try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).requestRefund(
                transactionId: try context.pathValue("transactionId"), reason: body.reason ?? "OTHER"))
        }
        world.get("refund-requests") { _, context in
            try JSONResponse.ok(RefundRequestList(refundRequests: try await context.world(try context.pathValue("world"), in: store).refundRequests()))
        }
        world.post("refund-requests/:requestId/decide") { request, context in
            let body = try await request.decodeJSON(DecideBody.self)
            return try JSONResponse.ok(try await context.world(try context.pathValue("world"), in: store).decideRefund(
                requestId: try context.pathValue("requestId"), grant: body.grant))
        }
        world.post("transactions/:transactionId/reverse-refund") { _, context in
            let signed = try await context.world(try context.pathValue("world"), in: store).reverseRefund(transactionId: try context.pathValue("transactionId"))
            return try JSONResponse.ok(SignedTransactionAnswer(signedTransaction: signed.jws, transaction: signed.payload))
        }
    }
}
