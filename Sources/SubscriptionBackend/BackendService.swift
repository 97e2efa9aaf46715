import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging

/// A running backend: its HTTP server, webhook deliveries and reconciliation (on start, then
/// every `reconcileIntervalSeconds`). `openstore backend` runs one alone; `openstore serve` runs
/// one beside the store for the demo apps. Written once so both start the same thing.
public struct BackendService: Sendable {
    public let configuration: BackendConfiguration
    public let database: BackendDatabase
    public let extraRootsDER: [[UInt8]]
    public let http: HTTPClient
    public let logger: Logger

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
        let wake = DispatcherWake()
        let backend = try SubscriptionBackend(
            configuration: settings, database: database, extraRootsDER: extraRootsDER, logger: logger,
            onEvents: { wake.poke() })
        let dispatcher = WebhookDispatcher(backend: backend, http: http)
        wake.set(dispatcher)
        let reconciler = Reconciler(backend: backend, http: http)
        let server = BackendHTTPServer(backend: backend, reconciler: reconciler, dispatcher: dispatcher)
        let deliveries = Task { await dispatcher.run() }
        let interval = settings.reconcileIntervalSeconds
        // Reconciliation starts once the server listens, so a store in the same process that
        // waits for the backend's address is already answering the Server API.
        let started = StartSignal()
        let reconciling = Task {
            await started.wait()
            while !Task.isCancelled {
                let report = await reconciler.reconcile()
                logger.info("reconciled", metadata: [
                    "notifications": "\(report.notificationsApplied)", "transactions": "\(report.transactionsSeen)",
                    "statuses": "\(report.subscriptionsChecked)", "errors": "\(report.errors.count)"])
                dispatcher.poke()
                guard interval > 0 else { break }
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            }
        }
        defer {
            reconciling.cancel()
            deliveries.cancel()
        }
        let app = Application(
            router: server.makeRouter(),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "openstore-backend"),
            onServerRunning: { channel in
                await onListening(channel.localAddress?.port ?? settings.port)
                started.fire()
            },
            logger: logger)
        if handlesSignals {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } else {
            try await app.runService()
        }
        reconciling.cancel()
        deliveries.cancel()
        _ = await (reconciling.value, deliveries.value)
    }
}

/// Lets the backend wake the dispatcher, which is made after the backend.
final class DispatcherWake: @unchecked Sendable {
    private let lock = NSLock()
    private var dispatcher: WebhookDispatcher?
    func set(_ dispatcher: WebhookDispatcher) { lock.lock(); self.dispatcher = dispatcher; lock.unlock() }
    func poke() { lock.lock(); let d = dispatcher; lock.unlock(); d?.poke() }
}

/// A one-shot gate: `wait` returns once `fire` was called (or the task is cancelled).
final class StartSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        lock.lock()
        fired = true
        let pending = waiters
        waiters = []
        lock.unlock()
        pending.forEach { $0.resume() }
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if fired {
                    lock.unlock()
                    continuation.resume()
                } else {
                    waiters.append(continuation)
                    lock.unlock()
                }
            }
        } onCancel: {
            self.fire()
        }
    }
}
