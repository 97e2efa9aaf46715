import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import StoreShared

/// A running backend: its HTTP server, webhook deliveries and reconciliation (on start, then
/// every `reconcileIntervalSeconds`). `openstore backend` runs one alone; `openstore serve` runs
/// one beside the store for the demo apps. Written once so both start the same thing.
public struct BackendService: Sendable {
    /// What the backend runs with; validated when `run` builds the backend.
    public let configuration: BackendConfiguration
    /// The backend's storage, opened by the caller.
    public let database: BackendDatabase
    /// Roots every app trusts beyond its own: an OpenStoreKit store's root when the backend runs beside it.
    public let extraRootsDER: [[UInt8]]
    /// The client for webhook deliveries and Server API calls, owned by the caller.
    public let http: HTTPClient
    /// Where the server, reconciliation passes and webhook failures log.
    public let logger: Logger

    /// Only stores its parts; nothing starts until `run`.
    public init(configuration: BackendConfiguration, database: BackendDatabase, extraRootsDER: [[UInt8]] = [],
                http: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.database = database
        self.extraRootsDER = extraRootsDER
        self.http = http
        self.logger = logger
    }

    /// Serves until SIGTERM/SIGINT (when `handlesSignals`) or until the task is cancelled.
    /// `onListening` gets the bound port once the server accepts connections. Throws when the
    /// port cannot be bound, before `onListening` is called.
    public func run(handlesSignals: Bool, onListening: @escaping @Sendable (Int) async -> Void) async throws {
        let settings = configuration
        let logger = logger
        let wake = WakeSignal(), refundWake = WakeSignal()
        let backend = try SubscriptionBackend(
            configuration: settings, database: database, extraRootsDER: extraRootsDER, logger: logger,
            onEvents: { wake.signal(); refundWake.signal() })
        let dispatcher = WebhookDispatcher(backend: backend, http: http, wake: wake)
        let responder = RefundResponder(backend: backend, http: http, wake: refundWake)
        let reconciler = Reconciler(backend: backend, http: http)
        let server = BackendHTTPServer(backend: backend, reconciler: reconciler, dispatcher: dispatcher)
        // Reconciliation starts once the server listens, so a store in the same process that
        // waits for the backend's address is already answering the Server API.
        let started = WakeSignal()
        var app = Application(
            router: server.makeRouter(),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "openstore-backend"),
            onServerRunning: { channel in
                await onListening(channel.localAddress?.port ?? settings.port)
                started.signal()
            },
            logger: logger)
        // Before the server in the group: on SIGTERM the server stops first, then these end.
        app.addServices(
            WebhookDeliveryService(dispatcher: dispatcher),
            RefundControlService(responder: responder),
            ReconcileService(reconciler: reconciler, dispatcher: dispatcher, intervalSeconds: settings.reconcileIntervalSeconds,
                             started: started, logger: logger))
        // The last second's `lastSeen` sightings are saved on the way out, before the caller closes the database.
        do {
            if handlesSignals {
                try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
            } else {
                try await app.runService()
            }
        } catch {
            await backend.lastSeen.flush()
            throw error
        }
        await backend.lastSeen.flush()
    }
}
