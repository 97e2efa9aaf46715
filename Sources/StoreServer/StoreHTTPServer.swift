import Foundation
import Hummingbird
import NIOCore
import Logging
import ServiceLifecycle
import StoreEngine
import StoreViews
import StoreShared

/// The store's HTTP front: device API, OpenAPI document and health check. It only translates
/// HTTP to `AppStore` calls and back.
public struct StoreHTTPServer: Sendable {
    /// The store every route serves.
    public let store: AppStore
    /// The address to listen on; loopback by default (secure by default: `--host` widens it).
    public var host: String
    /// The port; 0 picks a free one (`onReady` gets it).
    public var port: Int
    /// With a token the admin API (`/admin/v1`) requires `Authorization: Bearer <token>` from
    /// anywhere; without one it answers loopback peers only.
    public var adminToken: String?
    /// The pages served at `/store` (those whose app this store hosts).
    public var storePages: [StorePage]
    /// Where `/store` pages find the offering a subscription backend serves the customer (their
    /// `StoreSnapshot.offering`); nil: none. `openstore serve` wires its backend's.
    public var offerings: OfferingSource? = nil
    /// What `/metrics` reports; each server counts its own requests.
    public var metrics = StoreMetrics()
    /// When true the logger given to `run` keeps its level (`openstore serve --log-level`) and
    /// every request is logged; otherwise only warnings and errors are (tests, benchmarks).
    public var usesLoggerLevel = false
    /// The App Store Server API's limit, in requests per minute per key (`openstore serve
    /// --rate-limit`); beyond it the answer is `429 / 4290000`. Nil: no limit. Each server has its own.
    public var serverAPIRateLimit: Int?
    /// Tests only: every request is served as if it came from this address (the connection is on
    /// loopback), to see what outside peers get from the admin API and `/manage`.
    var peerOverride: SocketAddress?
    /// Background services that run beside the HTTP server in its service group (notification
    /// delivery, the performance-test runner). On SIGTERM or SIGINT the server stops taking
    /// requests first, then these shut down gracefully, last added first.
    public var services: [any Service] = []

    /// A server for `store`; nothing listens until `run`.
    public init(store: AppStore, host: String = "127.0.0.1", port: Int = 8080, adminToken: String? = nil,
                storePages: [StorePage] = DemoStorePages.all) {
        self.store = store
        self.host = host
        self.port = port
        self.adminToken = adminToken
        self.storePages = storePages
    }

    /// Every route of the store with its middlewares, for `run` and for in-process router tests.
    public func makeRouter() -> Router<StoreRequestContext> {
        let router = Router(context: StoreRequestContext.self)
        if let peerOverride { router.add(middleware: PeerOverrideMiddleware(peer: peerOverride)) }
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: HTTPMetricsMiddleware(metrics: metrics))
        if let instance = store.instance {
            router.add(middleware: WorldForwardingMiddleware(store: store, instanceId: instance.instanceId))
        }
        let allowed = AllowedMethods()
        router.add(middleware: ErrorMiddleware(allowed: allowed))
        MetricsRoute(store: store, metrics: metrics).register(on: router)
        router.get("healthz") { _, _ in try JSONResponse.ok(["status": "ok"]) }
        ReadinessRoute(store: store).register(on: router)
        router.get("openapi.json") { _, _ in try OpenAPIDocument.response() }
        DeviceRoutes(store: store).register(on: router)
        DeviceSubscriptionRoutes(store: store).register(on: router)
        ServerAPIRoutes(store: store, rateLimitPerMinute: serverAPIRateLimit).register(on: router)
        OfferRoutes(store: store, token: adminToken).register(on: router)
        FamilyRoutes(store: store, token: adminToken).register(on: router)
        AdminRoutes(store: store, token: adminToken).register(on: router)
        AdminLifecycleRoutes(store: store, token: adminToken).register(on: router)
        DeviceMessageRoutes(store: store).register(on: router)
        NotificationAdminRoutes(store: store, token: adminToken).register(on: router)
        DeviceRefundRoutes(store: store).register(on: router)
        TransactionUpdateRoutes(store: store).register(on: router)
        VerifyReceiptRoutes(store: store, token: adminToken).register(on: router)
        StartPage(store: store).register(on: router)
        StorePageRoutes(store: store, pages: storePages, offerings: offerings).register(on: router)
        ManageRoutes(store: store, token: adminToken).register(on: router)
        allowed.load(router.routes)
        return router
    }

    /// Serves until the task is cancelled. `onReady` gets the bound port once connections are accepted.
    public func run(logger: Logger = Logger(label: "openstore"), onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var quiet = logger
        if !usesLoggerLevel { quiet.logLevel = .warning }
        quiet.handler = ShutdownNoiseFilter.wrapping(quiet.handler)
        var app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: "OpenStoreKit"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? 0) },
            logger: quiet)
        app.addServices(services)
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}
