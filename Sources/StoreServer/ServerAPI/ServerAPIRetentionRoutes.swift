import Foundation
import Hummingbird
import NIOCore
import StoreEngine

/// The Retention Messaging API (`/inApps/v1/messaging/…`), as Apple's `AppStoreServerAPIClient`
/// calls it; Apple's contract, documented in docs/server-api.md. A performance test's calls are
/// made by StoreNotifications' `RetentionPerformanceTestRunner`, started by `openstore serve`.
struct ServerAPIRetentionRoutes {
    let store: AppStore
    let gateway: ServerAPIGateway

    /// Largest image upload read (Apple publishes no limit we could find).
    static let maxImageBytes = 5 * 1024 * 1024

    func register(on api: RouterGroup<StoreRequestContext>) {
        let messaging = api.group("v1/messaging")
        messaging.get("image/list") { request, _ in
            try AppleJSON.ok(try await store.retentionImages(caller: try await caller(request)))
        }
        messaging.put("image/:imageIdentifier") { request, context in
            let caller = try await caller(request)
            let png = try await Self.body(of: request, limit: Self.maxImageBytes)
            try await store.uploadRetentionImage(
                context.appleSegment("imageIdentifier"), png: png, imageSize: request.uri.queryParameters["imageSize"].map(String.init), caller: caller)
            return AppleJSON.empty(.ok)
        }
        messaging.delete("image/:imageIdentifier") { request, context in
            try await store.deleteRetentionImage(context.appleSegment("imageIdentifier"), caller: try await caller(request))
            return AppleJSON.empty(.ok)
        }
        messaging.get("message/list") { request, _ in
            try AppleJSON.ok(try await store.retentionMessages(caller: try await caller(request)))
        }
        messaging.put("message/:messageIdentifier") { request, context in
            let caller = try await caller(request)
            try await store.uploadRetentionMessage(
                context.appleSegment("messageIdentifier"), body: try await ServerAPINotificationRoutes.body(of: request), caller: caller)
            return AppleJSON.empty(.ok)
        }
        messaging.delete("message/:messageIdentifier") { request, context in
            try await store.deleteRetentionMessage(context.appleSegment("messageIdentifier"), caller: try await caller(request))
            return AppleJSON.empty(.ok)
        }
        messaging.get("default/:productId/:locale") { request, context in
            try AppleJSON.ok(try await store.defaultMessage(
                productId: context.appleSegment("productId"), locale: context.appleSegment("locale"), caller: try await caller(request)))
        }
        messaging.put("default/:productId/:locale") { request, context in
            let caller = try await caller(request)
            try await store.configureDefaultMessage(
                productId: context.appleSegment("productId"), locale: context.appleSegment("locale"),
                body: try await ServerAPINotificationRoutes.body(of: request), caller: caller)
            return AppleJSON.empty(.ok)
        }
        messaging.delete("default/:productId/:locale") { request, context in
            try await store.deleteDefaultMessage(
                productId: context.appleSegment("productId"), locale: context.appleSegment("locale"), caller: try await caller(request))
            return AppleJSON.empty(.ok)
        }
        messaging.get("realtime/url") { request, _ in
            try AppleJSON.ok(try await store.realtimeURL(caller: try await caller(request)))
        }
        messaging.put("realtime/url") { request, _ in
            let caller = try await caller(request)
            try await store.configureRealtimeURL(body: try await ServerAPINotificationRoutes.body(of: request), caller: caller)
            return AppleJSON.empty(.ok)
        }
        messaging.delete("realtime/url") { request, _ in
            try await store.deleteRealtimeURL(caller: try await caller(request))
            return AppleJSON.empty(.ok)
        }
        messaging.post("performanceTest") { request, _ in
            let caller = try await caller(request)
            return try AppleJSON.ok(try await store.initiatePerformanceTest(
                body: try await ServerAPINotificationRoutes.body(of: request), caller: caller))
        }
        messaging.get("performanceTest/result/:requestId") { request, context in
            try AppleJSON.ok(try await store.performanceTestResult(requestId: context.appleSegment("requestId"), caller: try await caller(request)))
        }
    }

    private func caller(_ request: Request) async throws -> ServerAPICaller {
        try await gateway.authenticate(request)
    }

    static func body(of request: Request, limit: Int) async throws -> Data {
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            var chunk = chunk
            guard buffer.readableBytes + chunk.readableBytes <= limit else { throw AppleBodyTooLarge() }
            buffer.writeBuffer(&chunk)
        }
        return Data(buffer.readableBytesView)
    }
}

