import Foundation
import Hummingbird
import StoreEngine

/// Server API endpoints about subscriptions: statuses (3) and renewal-date extensions (9–11).
struct ServerAPISubscriptionRoutes {
    let store: AppStore
    let gateway: ServerAPIGateway

    func register(on api: RouterGroup<StoreRequestContext>) {
        api.get("v1/subscriptions/:transactionId") { request, context in
            let caller = try await gateway.authenticate(request)
            let statuses = request.uri.queryParameters[values: "status"].map(String.init)
            return try AppleJSON.ok(try await store.allSubscriptionStatuses(
                anyTransactionId: context.appleSegment("transactionId"), statusFilter: statuses, caller: caller))
        }
        api.put("v1/subscriptions/extend/:originalTransactionId") { request, context in
            let caller = try await gateway.authenticate(request)
            let body = try await request.collectAppleBody()
            return try AppleJSON.ok(try await store.extendRenewalDate(
                originalTransactionId: context.appleSegment("originalTransactionId"),
                request: try ExtendRenewalDateRequest(body: body), caller: caller))
        }
        api.post("v1/subscriptions/extend/mass") { request, _ in
            let caller = try await gateway.authenticate(request)
            let body = try await request.collectAppleBody()
            return try AppleJSON.ok(try await store.extendRenewalDatesForAllActiveSubscribers(
                try MassExtendRenewalDateRequest(body: body), caller: caller))
        }
        api.get("v1/subscriptions/extend/mass/:productId/:requestIdentifier") { request, context in
            let caller = try await gateway.authenticate(request)
            return try AppleJSON.ok(try await store.massExtensionStatus(
                productId: context.appleSegment("productId"),
                requestIdentifier: context.appleSegment("requestIdentifier"), caller: caller))
        }
    }
}


extension Request {
    /// The raw body, at most 64 KiB (an oversized one is `GENERAL_BAD_REQUEST`).
    fileprivate func collectAppleBody() async throws -> Data {
        do {
            return Data(try await body.collect(upTo: 64 * 1024).readableBytesView)
        } catch {
            throw ServerAPIError(code: 4_000_000, message: "Bad request.")
        }
    }
}
