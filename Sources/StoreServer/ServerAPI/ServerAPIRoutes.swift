import Foundation
import Hummingbird
import NIOCore
import StoreEngine

/// The App Store Server API (`/inApps/v1`, `/inApps/v2`), as Apple's own clients call it.
/// Apple's contract, so not in our `openapi.json`; see docs/server-api.md. Every request is
/// authenticated by `ServerAPIGateway`; every answer is Apple's shape, errors included.
///
struct ServerAPIRoutes {
    let store: AppStore
    let gateway: ServerAPIGateway

    /// `rateLimitPerMinute`: requests per minute per key beyond which the answer is 429
    /// (`StoreHTTPServer.serverAPIRateLimit`); nil or 0 is no limit.
    init(store: AppStore, rateLimitPerMinute: Int?) {
        self.store = store
        self.gateway = ServerAPIGateway(store: store, rateLimitPerMinute: rateLimitPerMinute.flatMap { $0 > 0 ? $0 : nil })
    }

    func register(on router: Router<StoreRequestContext>) {
        let api = router.group("inApps").add(middleware: ServerAPIErrorMiddleware())
        ServerAPINotificationRoutes(store: store, gateway: gateway).register(on: api)
        ServerAPISubscriptionRoutes(store: store, gateway: gateway).register(on: api)
        ServerAPIRetentionRoutes(store: store, gateway: gateway).register(on: api)
        for version in TransactionHistoryVersion.allCases {
            api.get("\(version.rawValue)/history/:transactionId") { request, context in
                try await authenticated(request) { caller in
                    let query = try TransactionHistoryRequest(parameters: request.uri.queryParameters.map { (String($0.key), String($0.value)) })
                    return try AppleJSON.ok(try await store.transactionHistory(
                        anyTransactionId: context.appleSegment("transactionId"), request: query, version: version, caller: caller))
                }
            }
        }
        api.get("v1/transactions/:transactionId") { request, context in
            try await authenticated(request) { caller in
                try AppleJSON.ok(try await store.transactionInfo(transactionId: context.appleSegment("transactionId"), caller: caller))
            }
        }
        api.get("v2/refund/lookup/:transactionId") { request, context in
            try await authenticated(request) { caller in
                try AppleJSON.ok(try await store.refundHistory(
                    anyTransactionId: context.appleSegment("transactionId"), revision: request.uri.queryParameters["revision"].map(String.init),
                    caller: caller))
            }
        }
        api.get("v1/lookup/:orderId") { request, context in
            try await authenticated(request) { caller in
                try AppleJSON.ok(try await store.lookUpOrder(orderId: context.appleSegment("orderId"), caller: caller))
            }
        }
        api.put("v2/transactions/consumption/:transactionId") { request, context in
            try await authenticated(request) { caller in
                try await store.sendConsumptionInformation(
                    transactionId: context.appleSegment("transactionId"), body: try await request.appleBody(), caller: caller)
                return AppleJSON.empty(.accepted)
            }
        }
        api.put("v1/transactions/consumption/:transactionId") { request, context in
            try await authenticated(request) { caller in
                try await store.sendConsumptionData(
                    transactionId: context.appleSegment("transactionId"), body: try await request.appleBody(), caller: caller)
                return AppleJSON.empty(.accepted)
            }
        }
        api.put("v1/transactions/:transactionId/appAccountToken") { request, context in
            try await authenticated(request) { caller in
                try await store.setAppAccountToken(
                    originalTransactionId: context.appleSegment("transactionId"), body: try await request.appleBody(), caller: caller)
                return AppleJSON.empty(.ok)
            }
        }
        api.get("v1/transactions/appTransactions/:transactionId") { request, context in
            try await authenticated(request) { caller in
                try AppleJSON.ok(try await store.appTransactionInfo(anyTransactionId: context.appleSegment("transactionId"), caller: caller))
            }
        }
        api.post("v1/transactions/:transactionId/finish") { request, context in
            try await authenticated(request) { caller in
                try await store.finishTransaction(transactionId: context.appleSegment("transactionId"), caller: caller)
                return AppleJSON.empty(.ok)
            }
        }
    }

    private func authenticated(_ request: Request, _ handler: (ServerAPICaller) async throws -> Response) async throws -> Response {
        let caller = try await gateway.authenticate(request)
        return try await handler(caller)
    }
}


extension Request {
    /// Largest body the Server API reads (its bodies are a few hundred bytes).
    static let maxAppleBody = 64 * 1024

    /// The raw body; an oversized one is `GENERAL_BAD_REQUEST`.
    fileprivate func appleBody() async throws -> Data {
        let (buffer, received) = try await boundedBody(limit: Self.maxAppleBody)
        guard received <= Self.maxAppleBody else { throw AppleBodyTooLarge() }
        return Data(buffer.readableBytesView)
    }
}

struct AppleBodyTooLarge: Error {}
