import Foundation
import Hummingbird
import NIOCore
import StoreEngine

/// Server API endpoints 6–8: Request a Test Notification, Get Test Notification Status and Get
/// Notification History, on the `/inApps` group (Apple's errors, bearer-token auth).
struct ServerAPINotificationRoutes {
    let store: AppStore
    let gateway: ServerAPIGateway

    func register(on api: RouterGroup<StoreRequestContext>) {
        api.post("v1/notifications/test") { request, _ in
            let caller = try await gateway.authenticate(request)
            return try AppleJSON.ok(try await store.requestTestNotification(caller: caller))
        }
        api.get("v1/notifications/test/:testNotificationToken") { request, context in
            let caller = try await gateway.authenticate(request)
            return try AppleJSON.ok(try await store.testNotificationStatus(token: context.appleSegment("testNotificationToken"), caller: caller))
        }
        api.post("v1/notifications/history") { request, _ in
            let caller = try await gateway.authenticate(request)
            let body = try await Self.body(of: request)
            let token = request.uri.queryParameters["paginationToken"].map { String($0) }
            return try AppleJSON.ok(try await store.notificationHistory(
                body: body, paginationToken: token.flatMap { $0.isEmpty ? nil : $0 }, caller: caller))
        }
    }

    /// The request body, at most 64 KiB (Apple's bodies here are a few hundred bytes).
    static func body(of request: Request) async throws -> Data {
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            var chunk = chunk
            guard buffer.readableBytes + chunk.readableBytes <= 64 * 1024 else { throw AppleBodyTooLarge() }
            buffer.writeBuffer(&chunk)
        }
        return Data(buffer.readableBytesView)
    }
}
