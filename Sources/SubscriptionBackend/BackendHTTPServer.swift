import Foundation
import StoreShared
import Hummingbird
import NIOCore

/// The backend's HTTP face: Apple posts notifications, the app posts transactions and reads
/// customer info, operators reconcile and read the delivery log. No rules here: each route
/// maps onto `SubscriptionBackend`, `Reconciler` or `WebhookDispatcher`.
public struct BackendHTTPServer: Sendable {
    let backend: SubscriptionBackend
    let reconciler: Reconciler
    let dispatcher: WebhookDispatcher

    /// Only holds the three services; `makeRouter` builds the routes onto them.
    public init(backend: SubscriptionBackend, reconciler: Reconciler, dispatcher: WebhookDispatcher) {
        self.backend = backend
        self.reconciler = reconciler
        self.dispatcher = dispatcher
    }

    static let maxBody = 256 * 1024

    /// Every route: Apple's notification endpoint, the `/v1` API (behind a bearer token when `apiToken`
    /// is set), the dashboard, and JSON answers for unknown routes (404) and an absent database (503).
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let allowed = AllowedMethods()
        router.add(middleware: BackendNotFoundMiddleware(allowed: allowed))
        router.add(middleware: BackendUnavailableMiddleware())
        let backend = backend, reconciler = reconciler, dispatcher = dispatcher
        let token = backend.configuration.apiToken

        router.get("/healthz") { _, _ in Self.json(["status": "ok"]) }
        router.get("/openapi.json") { _, _ in
            guard let data = EmbeddedResources.data(named: "openapi.json") else { return Self.error(500, "missingResource", "openapi.json is missing") }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }

        // App Store Server Notifications V2: 200 only once the state is committed.
        router.post("/apple/notifications/:bundleId") { request, context in
            let bundleId = context.parameters.get("bundleId") ?? ""
            guard let body = try? await request.body.collect(upTo: Self.maxBody) else {
                return Self.error(413, "payloadTooLarge", "the body exceeds \(Self.maxBody) bytes")
            }
            guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
                  let signed = object["signedPayload"] as? String else {
                return Self.error(400, "malformed", "expected {\"signedPayload\": \"<JWS>\"}")
            }
            do {
                let outcome = try await backend.receiveNotification(bundleId: bundleId, signedPayload: signed)
                return Self.json(["result": outcome.rawValue])
            } catch let rejection as SignedDataRejection {
                return Self.rejection(rejection)
            }
        }

        let v1 = router.group("/v1")
        if let token {
            v1.add(middleware: BearerTokenMiddleware(token: token))
        }
        v1.post("/customers/:appUserId/transactions") { request, context in
            guard let user = Self.appUserId(context) else { return Self.badAppUserId }
            guard let body = try? await request.body.collect(upTo: Self.maxBody) else {
                return Self.error(413, "payloadTooLarge", "the body exceeds \(Self.maxBody) bytes")
            }
            guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
                  let signed = object["signedTransaction"] as? String else {
                return Self.error(400, "malformed", "expected {\"signedTransaction\": \"<JWS>\"} (StoreKit 2's jwsRepresentation)")
            }
            do {
                return try Self.encoded(try await backend.receiveTransaction(appUserId: user, signedTransaction: signed))
            } catch let kept as PurchaseBelongsToAnotherCustomer {
                return Self.error(409, "purchaseBelongsToAnotherCustomer", kept.description)
            } catch let refused as StandInRefused {
                return Self.error(422, "invalidRequest", refused.description)
            } catch let rejection as SignedDataRejection {
                return Self.rejection(rejection)
            } catch let error as BackendRequestError {
                return Self.error(400, "invalidRequest", error.description)
            }
        }
        v1.get("/customers/:appUserId") { _, context in
            guard let user = Self.appUserId(context) else { return Self.badAppUserId }
            guard let info = try await backend.customerInfo(appUserId: user) else {
                return Self.error(404, "customerNotFound", "no customer \(user)")
            }
            return try Self.encoded(info)
        }
        v1.get("/customers/:appUserId/events") { request, context in
            guard let user = Self.appUserId(context) else { return Self.badAppUserId }
            guard let limit = Self.limit(request) else { return Self.badLimit }
            return try Self.encoded(["events": try await backend.events(appUserId: user, limit: limit)])
        }
        BackendCustomerRoutes.register(on: v1, backend: backend)
        BackendOfferingRoutes.register(on: v1, backend: backend)
        BackendChartRoutes.register(on: v1, backend: backend)
        // Refund control: the customer's consent as the app recorded it, and what became of each request.
        v1.put("/customers/:appUserId/consumption-consent") { request, context in
            guard let user = Self.appUserId(context) else { return Self.badAppUserId }
            guard let body = try? await request.body.collect(upTo: Self.maxBody) else {
                return Self.error(413, "payloadTooLarge", "the body exceeds \(Self.maxBody) bytes")
            }
            struct Consent: Decodable { var consented: Bool }
            guard let consent = try? JSONDecoder().decode(Consent.self, from: Data(buffer: body)) else {
                return Self.error(400, "malformed", "expected {\"consented\": true or false}")
            }
            do {
                return try Self.encoded(try await backend.recordConsent(appUserId: user, consented: consent.consented))
            } catch let refused as StandInRefused {
                return Self.error(422, "invalidRequest", refused.description)
            }
        }
        v1.post("/admin/webhooks/test") { request, _ in
            let bundleId = request.uri.queryParameters["bundleId"].map(String.init)
            do {
                return try Self.encoded(["event": try await backend.sendTestEvent(bundleId: bundleId)])
            } catch let error as BackendRequestError {
                // A bundle ID that names no configured app names nothing: 404, as for an unknown customer.
                return Self.error(404, "appNotFound", error.description)
            }
        }
        v1.get("/admin/refund-requests") { request, _ in
            guard let limit = Self.limit(request) else { return Self.badLimit }
            return try Self.encoded(try await backend.refundRequests(limit: limit))
        }
        v1.get("/events") { request, _ in
            guard let limit = Self.limit(request) else { return Self.badLimit }
            return try Self.encoded(["events": try await backend.events(appUserId: nil, limit: limit)])
        }
        v1.post("/admin/reconcile") { _, _ in
            let report = await reconciler.reconcile()
            dispatcher.poke()
            return try Self.encoded(report)
        }
        v1.get("/admin/deliveries") { request, _ in
            guard let limit = Self.limit(request) else { return Self.badLimit }
            let eventId = request.uri.queryParameters["eventId"].map(String.init)
            struct Log: Encodable { var outbox: [String: Int]; var deliveries: [DeliveryLogEntry] }
            return try Self.encoded(Log(outbox: try await dispatcher.outboxCounts(),
                                        deliveries: try await dispatcher.log(eventId: eventId, limit: limit)))
        }
        v1.get("/admin/rejections") { _, _ in
            try Self.encoded(["rejections": backend.rejections.all])
        }
        // The dashboard (`/`, `/customers`, sign-in) and its figures as JSON (`/v1/admin/overview`).
        BackendDashboard.register(router: router, v1: v1, backend: backend)
        allowed.load(router.routes)
        return router
    }

    static func rejection(_ rejection: SignedDataRejection) -> Response {
        let status = rejection.code == "malformed" ? 400 : 403
        return error(status, rejection.code, rejection.description)
    }

    static func encoded(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    static func json(_ value: [String: String]) -> Response {
        (try? encoded(value)) ?? Response(status: .internalServerError)
    }

    /// `?limit=`: 1–1000, default 100; nil (a 400) for anything else, a repeated one included,
    /// as openapi.json says.
    static func limit(_ request: Request) -> Int? {
        let values = request.uri.queryParameters[values: "limit"]
        guard let text = values.first else { return 100 }
        guard values.count == 1, let limit = Int(String(text)), (1...1000).contains(limit) else { return nil }
        return limit
    }

    static var badLimit: Response {
        error(400, "invalidLimit", "limit must be one whole number from 1 to 1000")
    }

    /// The app user ID a path names, percent-decoded as the app's SDK encodes it (an email address
    /// arrives as `ann%40example.com`): 1–256 characters (Unicode scalars, as openapi.json's
    /// `maxLength` counts) without control characters, else nil.
    static func appUserId(_ context: BasicRequestContext) -> String? {
        guard let raw = context.parameters.get("appUserId"), let user = FormEncoding.pathDecoded(raw),
              (1...256).contains(user.unicodeScalars.count), !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return user
    }

    static var badAppUserId: Response {
        error(400, "invalidAppUserId", "the path's app user ID must be 1–256 characters of percent-encoded UTF-8 without control characters")
    }

    static func error(_ status: Int, _ code: String, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": code, "message": message])) ?? Data()
        return Response(status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// `/v1/*` behind `Authorization: Bearer <token>` when one is configured.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.authorization] == "Bearer \(token)" else {
            return BackendHTTPServer.error(401, "unauthorized", "send Authorization: Bearer <token>")
        }
        return try await next(request, context)
    }
}
