import Foundation
import Hummingbird
import StoreEngine

/// The Transaction Manager's per-transaction actions (`SKTestSession`'s refund, delete, expire, force
/// renewal, auto-renew, resolve issue, Ask to Buy answers, clear) and what a test inspects
/// afterwards (subscription statuses, the events log), all scoped to one world.
struct AdminTransactionRoutes {
    let store: AppStore

    func register(on admin: RouterGroup<StoreRequestContext>) {
        let world = admin.group("worlds/:world")
        world.post("transactions/:transactionId/refund") { request, context in
            let reason = try AdminBody.revocationReason(try await request.decodeJSONIfPresent(AdminBody.Refund.self)?.reason)
            let signed = try await context.world(try context.pathValue("world"), in: store).refund(transactionId: try context.pathValue("transactionId"), reason: reason)
            return try JSONResponse.ok(AdminView.TransactionAnswer(signed))
        }
        world.delete("transactions/:transactionId") { _, context in
            let id = try context.pathValue("transactionId")
            try await context.world(try context.pathValue("world"), in: store).deleteTransaction(transactionId: id)
            return try JSONResponse.ok(AdminView.TransactionDeleted(transactionId: id))
        }
        world.post("transactions/:transactionId/expire") { _, context in
            let signed = try await context.world(try context.pathValue("world"), in: store).expireSubscription(transactionId: try context.pathValue("transactionId"))
            return try JSONResponse.ok(AdminView.RenewalInfoAnswer(signed))
        }
        world.post("transactions/:transactionId/renew") { _, context in
            let outcome = try await context.world(try context.pathValue("world"), in: store).forceRenewal(transactionId: try context.pathValue("transactionId"))
            return PurchaseAnswer.response(outcome)
        }
        world.post("transactions/:transactionId/auto-renew") { request, context in
            let enabled = try await request.decodeJSON(AdminBody.AutoRenew.self).enabled
            let signed = try await context.world(try context.pathValue("world"), in: store).setAutoRenew(
                transactionId: try context.pathValue("transactionId"), enabled: enabled)
            return try JSONResponse.ok(AdminView.RenewalInfoAnswer(signed))
        }
        world.post("transactions/:transactionId/resolve-issue") { _, context in
            let outcome = try await context.world(try context.pathValue("world"), in: store).resolveIssue(try context.pathValue("transactionId"))
            return PurchaseAnswer.response(outcome)
        }

        world.get("pending-purchases") { _, context in
            try JSONResponse.ok(AdminView.PendingList(pendingPurchases: try await context.world(try context.pathValue("world"), in: store).pendingPurchases()))
        }
        world.post("pending-purchases/:pendingId/approve") { _, context in
            let id = try context.pathValue("pendingId")
            guard let outcome = try await context.world(try context.pathValue("world"), in: store).answerAskToBuy(id, approve: true) else {
                throw StoreError.invalidAction("Ask to Buy request \(id) was not approved")
            }
            return PurchaseAnswer.response(outcome)
        }
        world.post("pending-purchases/:pendingId/decline") { _, context in
            let id = try context.pathValue("pendingId")
            _ = try await context.world(try context.pathValue("world"), in: store).answerAskToBuy(id, approve: false)
            return try JSONResponse.ok(AdminView.Declined(pendingId: id))
        }

        world.delete("apps/:bundleId/transactions") { request, context in
            let bundleId = try context.pathValue("bundleId")
            let customer = try request.queryValue("customer")
            try await context.world(try context.pathValue("world"), in: store).clearTransactions(bundleId: bundleId, customer: customer)
            return try JSONResponse.ok(AdminView.Cleared(bundleId: bundleId, customer: customer))
        }
        world.get("apps/:bundleId/customers/:customer/subscriptions") { _, context in
            let bundleId = try context.pathValue("bundleId"), customer = try context.pathValue("customer")
            let items = try await context.world(try context.pathValue("world"), in: store).subscriptionStatuses(bundleId: bundleId, customer: customer)
            return try JSONResponse.ok(AdminView.Subscriptions(bundleId: bundleId, customer: customer, subscriptions: items.map(AdminView.SubscriptionStatus.init)))
        }
        world.get("events") { request, context in try await events(request, context) }
    }

    func events(_ request: Request, _ context: StoreRequestContext) async throws -> Response {
        let after = try request.queryInteger("after", default: 0, range: 0...Int64.max)
        let limit = try request.queryInteger("limit", default: 1000, range: 1...10_000)
        let records = try await context.world(try context.pathValue("world"), in: store).events(after: after, limit: Int(limit))
        return try JSONResponse.ok(AdminView.Events(events: records.map(AdminView.Event.init), lastSeq: records.last?.seq ?? after))
    }
}
